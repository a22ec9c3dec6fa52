#include "CTesseract.h"
