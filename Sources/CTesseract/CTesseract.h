// Tesseract's own C API, used directly from Swift.
#include <tesseract/capi.h>
