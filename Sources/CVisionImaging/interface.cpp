// The interface this library was built with, which the shim checks before it calls anything (imaging_library.cpp).
#include "../CVisionShim/ShimSupport.hpp"
#include "include/CVisionImaging.h"

extern "C" const char *svi_interface(void) { return SV_IMAGING_FUNCTIONS(SV_INTERFACE_ENTRY); }
