// Debian's zxing-cpp 1.4, built as its own shared library, libSwiftVisionBarcodes.so, which
// DebianZXingLibrary.swift loads with dlopen the first time zxing-cpp 3 is not there to read a barcode.
// Its functions are those of SVB_FUNCTIONS in CBarcodeShim.h.
#ifndef SWIFTVISION_CBARCODEREADER_H
#define SWIFTVISION_CBARCODEREADER_H

#include "../../CBarcodeShim/include/CBarcodeShim.h"

#ifdef __cplusplus
extern "C" {
#endif

/// One function of ``SVB_FUNCTIONS`` (CBarcodeShim.h) as its declaration.
#define SVB_DECLARATION(result, name, parameters) result name parameters;
SVB_FUNCTIONS(SVB_DECLARATION)

#ifdef __cplusplus
}
#endif

#endif
