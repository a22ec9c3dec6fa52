// Our own minimal declarations of the parts of Tesseract 5's C API (capi.h, libtesseract.so.5) that
// SwiftVision uses. SwiftVision loads the library with dlopen when text is first recognised and binds
// these function types with dlsym, so that the binary does not need Tesseract and Leptonica to start.
#ifndef SWIFTVISION_CTESSERACT_H
#define SWIFTVISION_CTESSERACT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct TessBaseAPI TessBaseAPI;
typedef struct TessPageIterator TessPageIterator;
typedef struct TessResultIterator TessResultIterator;
typedef struct ETEXT_DESC ETEXT_DESC;

typedef int TessBool;  // capi.h's BOOL: non-zero is true.

typedef enum { OEM_TESSERACT_ONLY = 0, OEM_LSTM_ONLY = 1 } TessOcrEngineMode;
typedef enum { PSM_OSD_ONLY = 0, PSM_AUTO = 3, PSM_SINGLE_LINE = 7, PSM_SPARSE_TEXT = 11 } TessPageSegMode;
typedef enum { RIL_BLOCK = 0, RIL_PARA = 1, RIL_TEXTLINE = 2, RIL_WORD = 3 } TessPageIteratorLevel;

typedef void (*TessDeleteTextFunction)(const char *text);

typedef TessBaseAPI *(*TessBaseAPICreateFunction)(void);
typedef void (*TessBaseAPIDeleteFunction)(TessBaseAPI *handle);
typedef int (*TessBaseAPIInit4Function)(TessBaseAPI *handle, const char *dataPath, const char *language,
                                        TessOcrEngineMode mode, char **configs, int configCount, char **variableNames,
                                        char **variableValues, size_t variableCount, TessBool setOnlyNonDebugParams);
typedef TessBool (*TessBaseAPISetVariableFunction)(TessBaseAPI *handle, const char *name, const char *value);
typedef void (*TessBaseAPISetPageSegModeFunction)(TessBaseAPI *handle, TessPageSegMode mode);
typedef void (*TessBaseAPISetImageFunction)(TessBaseAPI *handle, const unsigned char *imageData, int width,
                                            int height, int bytesPerPixel, int bytesPerLine);
typedef void (*TessBaseAPISetSourceResolutionFunction)(TessBaseAPI *handle, int ppi);
typedef int (*TessBaseAPIRecognizeFunction)(TessBaseAPI *handle, ETEXT_DESC *monitor);
typedef TessResultIterator *(*TessBaseAPIGetIteratorFunction)(TessBaseAPI *handle);
typedef TessBool (*TessBaseAPIDetectOrientationScriptFunction)(TessBaseAPI *handle, int *degrees, float *confidence,
                                                               const char **scriptName, float *scriptConfidence);
typedef void (*TessBaseAPIClearFunction)(TessBaseAPI *handle);

// A recognition's progress monitor (ocrclass.h's ETEXT_DESC): Tesseract calls its cancel function with
// `cancelThis` as it goes, and stops recognising once the function returns true.
typedef bool (*TessCancelFunction)(void *cancelThis, int words);
typedef ETEXT_DESC *(*TessMonitorCreateFunction)(void);
typedef void (*TessMonitorDeleteFunction)(ETEXT_DESC *monitor);
typedef void (*TessMonitorSetCancelFuncFunction)(ETEXT_DESC *monitor, TessCancelFunction cancelFunction);
typedef void (*TessMonitorSetCancelThisFunction)(ETEXT_DESC *monitor, void *cancelThis);
typedef void (*TessBaseAPIEndFunction)(TessBaseAPI *handle);

typedef TessBool (*TessPageIteratorIsAtBeginningOfFunction)(const TessPageIterator *handle,
                                                            TessPageIteratorLevel level);
typedef TessBool (*TessPageIteratorBoundingBoxFunction)(const TessPageIterator *handle, TessPageIteratorLevel level,
                                                        int *left, int *top, int *right, int *bottom);

typedef void (*TessResultIteratorDeleteFunction)(TessResultIterator *handle);
typedef TessPageIterator *(*TessResultIteratorGetPageIteratorFunction)(TessResultIterator *handle);
typedef TessBool (*TessResultIteratorNextFunction)(TessResultIterator *handle, TessPageIteratorLevel level);
typedef char *(*TessResultIteratorGetUTF8TextFunction)(const TessResultIterator *handle, TessPageIteratorLevel level);
typedef float (*TessResultIteratorConfidenceFunction)(const TessResultIterator *handle, TessPageIteratorLevel level);
typedef const char *(*TessResultIteratorWordRecognitionLanguageFunction)(const TessResultIterator *handle);

// Leptonica's message severities (its environ.h): EXTERNAL applies $LEPT_MSG_SEVERITY when set, NONE prints
// nothing. setMsgSeverity sets one and returns the one before.
enum { LEPTONICA_SEVERITY_EXTERNAL = 0, LEPTONICA_SEVERITY_NONE = 6 };
typedef int (*LeptonicaSetMsgSeverityFunction)(int severity);

// libSwiftVisionTesseract.so's functions (CTesseractSupport.h).
typedef void (*SVTSetLoadUniversalFunction)(void *function);
typedef void (*SVTSkipUniversalAmbiguitiesFunction)(int skips);

#endif
