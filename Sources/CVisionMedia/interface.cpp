// The interface this library was built with, which the shim checks before it calls anything (media_library.cpp).
#include "include/CVisionMedia.h"

extern "C" const char *svm_interface(void) { return SV_MEDIA_FUNCTIONS(SV_MEDIA_INTERFACE_ENTRY); }
