// Debian's zxing-cpp 1.4, built as its own shared library, libSwiftVisionBarcodes.so, which
// DebianZXingLibrary.swift loads with dlopen the first time zxing-cpp 3 is not there to read a barcode.
// Each function has the type of the same name in CBarcodeShim.h.
#ifndef SWIFTVISION_CBARCODEREADER_H
#define SWIFTVISION_CBARCODEREADER_H

#include "../../CBarcodeShim/include/CBarcodeShim.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Text of the last failure on this thread.
const char *svb_last_error(void);

/// Reads the barcodes in an 8-bit gray image of `height` rows `bytesPerRow` apart.
/// On success `results` receives `count` barcodes (possibly none).
int svb_read_barcodes(const uint8_t *pixels, int32_t width, int32_t height, int32_t bytesPerRow, SVBarcodeHints hints,
                      SVBarcode **results, int32_t *count);

/// Releases what svb_read_barcodes returned.
void svb_free_barcodes(SVBarcode *results, int32_t count);

#ifdef __cplusplus
}
#endif

#endif
