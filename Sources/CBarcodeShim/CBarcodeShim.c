#include "CBarcodeShim.h"
