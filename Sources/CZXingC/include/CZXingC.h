// Our own minimal declarations of the parts of zxing-cpp 3's C API (ZXingC.h) that SwiftVision uses. The
// library, built by scripts/build-zxing.sh, is loaded with dlopen and these function types bound with dlsym.
#ifndef SWIFTVISION_CZXINGC_H
#define SWIFTVISION_CZXINGC_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ZXing_Barcode ZXing_Barcode;
typedef struct ZXing_Barcodes ZXing_Barcodes;
typedef struct ZXing_ImageView ZXing_ImageView;
typedef struct ZXing_ReaderOptions ZXing_ReaderOptions;

typedef enum { ZXing_ImageFormat_Lum = 0x01000000 } ZXing_ImageFormat;

/// A format: its symbology identifier's letter in the low byte, the variant's letter in the next one.
typedef uint32_t ZXing_BarcodeFormat;

typedef struct {
    int x, y;
} ZXing_PointI;

typedef struct {
    ZXing_PointI topLeft, topRight, bottomRight, bottomLeft;
} ZXing_Position;

typedef ZXing_ImageView *(*ZXing_ImageView_newFunction)(const uint8_t *data, int width, int height,
                                                         ZXing_ImageFormat format, int rowStride, int pixStride);
typedef void (*ZXing_ImageView_deleteFunction)(ZXing_ImageView *view);

typedef ZXing_ReaderOptions *(*ZXing_ReaderOptions_newFunction)(void);
typedef void (*ZXing_ReaderOptions_deleteFunction)(ZXing_ReaderOptions *options);
typedef void (*ZXing_ReaderOptions_setFlagFunction)(ZXing_ReaderOptions *options, bool value);
typedef void (*ZXing_ReaderOptions_setFormatsFunction)(ZXing_ReaderOptions *options, const ZXing_BarcodeFormat *formats,
                                                       int count);
typedef void (*ZXing_ReaderOptions_setMaxNumberOfSymbolsFunction)(ZXing_ReaderOptions *options, int count);

typedef ZXing_Barcodes *(*ZXing_ReadBarcodesFunction)(const ZXing_ImageView *view, const ZXing_ReaderOptions *options);
typedef void (*ZXing_Barcodes_deleteFunction)(ZXing_Barcodes *barcodes);
typedef int (*ZXing_Barcodes_sizeFunction)(const ZXing_Barcodes *barcodes);
typedef const ZXing_Barcode *(*ZXing_Barcodes_atFunction)(const ZXing_Barcodes *barcodes, int index);

typedef ZXing_BarcodeFormat (*ZXing_Barcode_formatFunction)(const ZXing_Barcode *barcode);
typedef uint8_t *(*ZXing_Barcode_bytesFunction)(const ZXing_Barcode *barcode, int *length);
typedef char *(*ZXing_Barcode_stringFunction)(const ZXing_Barcode *barcode);
typedef char *(*ZXing_Barcode_extraFunction)(const ZXing_Barcode *barcode, const char *key);
typedef ZXing_Position (*ZXing_Barcode_positionFunction)(const ZXing_Barcode *barcode);
typedef int (*ZXing_Barcode_orientationFunction)(const ZXing_Barcode *barcode);
typedef bool (*ZXing_Barcode_isMirroredFunction)(const ZXing_Barcode *barcode);

typedef char *(*ZXing_LastErrorMsgFunction)(void);
typedef const char *(*ZXing_VersionFunction)(void);
typedef void (*ZXing_freeFunction)(void *pointer);

#endif
