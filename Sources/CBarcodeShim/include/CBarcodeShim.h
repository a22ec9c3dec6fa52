// A plain C interface over Debian's zxing-cpp 1.4 barcode reader: one call reads every barcode in a gray
// image and copies the results into memory the caller releases with svb_free_barcodes. C++ exceptions
// become a non-zero status and svb_last_error() describes the failure. The functions are in
// libSwiftVisionBarcodes.so (Sources/CBarcodeReader), loaded with dlopen on first use (DebianZXingLibrary.swift),
// so this header declares their types, bound with dlsym, and the text that tells a library built from these
// declarations from one built from others.
#ifndef SWIFTVISION_CBARCODESHIM_H
#define SWIFTVISION_CBARCODESHIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What to look for and how hard (zxing-cpp's DecodeHints).
typedef struct {
    /// Bit set of zxing-cpp's BarcodeFormat values; 0 means every format.
    int32_t formats;
    int32_t tryHarder;
    /// Also try the image turned by 90°, 180° and 270°.
    int32_t tryRotate;
    /// Also try shrunk copies of large images.
    int32_t tryDownscale;
    /// At most this many barcodes; 0 means no limit.
    int32_t maximumCount;
} SVBarcodeHints;

/// One decoded barcode.
typedef struct {
    /// A zxing-cpp BarcodeFormat value.
    int32_t format;
    /// The content as UTF-8, `textLength` bytes (it may hold NUL characters) and a terminating NUL.
    char *text;
    int32_t textLength;
    /// The content's bytes as encoded in the symbol.
    uint8_t *bytes;
    int32_t byteCount;
    /// Top left, top right, bottom right, bottom left, as x, y pairs in pixels of the symbol's own orientation.
    int32_t corners[8];
    /// How far the symbol is turned clockwise, in degrees.
    int32_t orientation;
    int32_t isMirrored;
    /// The ISO/IEC 15424 symbology identifier, such as "]Q1", NUL-terminated.
    char symbologyIdentifier[8];
} SVBarcode;

/// The library's functions, as X(result, name, parameters):
/// - svb_last_error: text of the last failure on this thread.
/// - svb_read_barcodes: reads the barcodes in an 8-bit gray image of `height` rows `bytesPerRow` apart; on success
///   `results` receives `count` barcodes (possibly none).
/// - svb_free_barcodes: releases what svb_read_barcodes returned.
/// - svb_interface: the text ``svb_describe_interface`` wrote when the library was built.
#define SVB_FUNCTIONS(X)                                                                                               \
    X(const char *, svb_last_error, (void))                                                                            \
    X(int, svb_read_barcodes,                                                                                          \
      (const uint8_t *pixels, int32_t width, int32_t height, int32_t bytesPerRow, SVBarcodeHints hints,               \
       SVBarcode **results, int32_t *count))                                                                           \
    X(void, svb_free_barcodes, (SVBarcode *results, int32_t count))                                                    \
    X(const char *, svb_interface, (void))

/// One function of ``SVB_FUNCTIONS`` as its pointer type, `nameFunction`, which Swift binds with dlsym.
#define SVB_FUNCTION_TYPE(result, name, parameters) typedef result(*name##Function) parameters;
SVB_FUNCTIONS(SVB_FUNCTION_TYPE)

/// One function of ``SVB_FUNCTIONS`` as the text "result name(parameters);".
#define SVB_INTERFACE_ENTRY(result, name, parameters) #result " " #name #parameters ";"

/// The longest text ``svb_describe_interface`` writes, with its terminating NUL.
#define SVB_INTERFACE_CAPACITY 1024

/// Writes into `text` (``SVB_INTERFACE_CAPACITY`` bytes) this header as the code including it was compiled: its
/// functions' declarations, and the size and field offsets of the two types they pass. The library answers
/// svb_interface with the text written when it was built, and the loader compares it with its own, so that a
/// library built from other sources (another version of this header) is refused before any call.
static inline void svb_describe_interface(char *text) {
    snprintf(text, SVB_INTERFACE_CAPACITY,
             "%s SVBarcodeHints %zu: %zu %zu %zu %zu %zu; SVBarcode %zu: %zu %zu %zu %zu %zu %zu %zu %zu %zu",
             SVB_FUNCTIONS(SVB_INTERFACE_ENTRY), sizeof(SVBarcodeHints), offsetof(SVBarcodeHints, formats),
             offsetof(SVBarcodeHints, tryHarder), offsetof(SVBarcodeHints, tryRotate),
             offsetof(SVBarcodeHints, tryDownscale), offsetof(SVBarcodeHints, maximumCount), sizeof(SVBarcode),
             offsetof(SVBarcode, format), offsetof(SVBarcode, text), offsetof(SVBarcode, textLength),
             offsetof(SVBarcode, bytes), offsetof(SVBarcode, byteCount), offsetof(SVBarcode, corners),
             offsetof(SVBarcode, orientation), offsetof(SVBarcode, isMirrored),
             offsetof(SVBarcode, symbologyIdentifier));
}

#ifdef __cplusplus
}
#endif

#endif
