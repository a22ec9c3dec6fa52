// The shim's own functions of CVisionShim.h: the last error and releasing what the shim returned.
#include "ShimSupport.hpp"

#include <cstdlib>

extern "C" {

const char *sv_last_error(void) { return shim::lastError.c_str(); }

void sv_free(void *pointer) { std::free(pointer); }

}  // extern "C"
