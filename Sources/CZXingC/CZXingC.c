#include "CZXingC.h"
