// A plain C interface over Debian's zxing-cpp 1.4 barcode reader: one call reads every barcode in a gray
// image and copies the results into memory the caller releases with svb_free_barcodes. C++ exceptions
// become a non-zero status and svb_last_error() describes the failure. The functions are in
// libSwiftVisionBarcodes.so (Sources/CBarcodeReader), loaded with dlopen on first use (DebianZXingLibrary.swift),
// so this header declares their types, bound with dlsym.
#ifndef SWIFTVISION_CBARCODESHIM_H
#define SWIFTVISION_CBARCODESHIM_H

#include <stddef.h>
#include <stdint.h>

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

/// svb_last_error: text of the last failure on this thread.
typedef const char *(*svb_last_errorFunction)(void);

/// svb_read_barcodes: reads the barcodes in an 8-bit gray image of `height` rows `bytesPerRow` apart.
/// On success `results` receives `count` barcodes (possibly none).
typedef int (*svb_read_barcodesFunction)(const uint8_t *pixels, int32_t width, int32_t height, int32_t bytesPerRow,
                                         SVBarcodeHints hints, SVBarcode **results, int32_t *count);

/// svb_free_barcodes: releases what svb_read_barcodes returned.
typedef void (*svb_free_barcodesFunction)(SVBarcode *results, int32_t count);

#ifdef __cplusplus
}
#endif

#endif
