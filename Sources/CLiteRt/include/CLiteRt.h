// Our own minimal declarations of the LiteRT 2.3.0 C API (libLiteRt.so), which ships no
// header. SwiftVision loads the library with dlopen and binds these function types with dlsym.
#ifndef SWIFTVISION_CLITERT_H
#define SWIFTVISION_CLITERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct LiteRtEnvironmentT *LiteRtEnvironment;
typedef struct LiteRtModelT *LiteRtModel;
typedef struct LiteRtSignatureT *LiteRtSignature;
typedef struct LiteRtTensorT *LiteRtTensor;
typedef struct LiteRtOptionsT *LiteRtOptions;
typedef struct LiteRtOpaqueOptionsT *LiteRtOpaqueOptions;
typedef struct LiteRtCompiledModelT *LiteRtCompiledModel;
typedef struct LiteRtTensorBufferT *LiteRtTensorBuffer;

typedef int32_t LiteRtStatus;  // 0 is success.
typedef size_t LiteRtParamIndex;

typedef enum {
    kLiteRtElementTypeNone = 0,
    kLiteRtElementTypeFloat32 = 1,
    kLiteRtElementTypeInt32 = 2,
    kLiteRtElementTypeUInt8 = 3,
    kLiteRtElementTypeInt64 = 4,
    kLiteRtElementTypeBool = 6,
    kLiteRtElementTypeInt16 = 7,
    kLiteRtElementTypeInt8 = 9,
    kLiteRtElementTypeFloat16 = 10,
} LiteRtElementType;

enum { kLiteRtTensorMaxRank = 8 };

typedef struct {
    unsigned int rank : 7;
    unsigned int has_strides : 1;
    int32_t dimensions[kLiteRtTensorMaxRank];
    uint32_t strides[kLiteRtTensorMaxRank];
} LiteRtLayout;

typedef struct {
    LiteRtElementType element_type;
    LiteRtLayout layout;
} LiteRtRankedTensorType;

typedef struct {
    float scale;
    int64_t zero_point;
} LiteRtQuantizationPerTensor;

enum {
    kLiteRtRankedTensorType = 0,
    kLiteRtQuantizationPerTensor = 1,
    kLiteRtHwAcceleratorCpu = 1,
    kLiteRtTensorBufferTypeHostMemory = 1,
    kLiteRtTensorBufferLockModeRead = 0,
    kLiteRtTensorBufferLockModeWrite = 1,
};

typedef LiteRtStatus (*LiteRtCreateEnvironmentFunction)(int optionCount, const void *options,
                                                        LiteRtEnvironment *environment);
typedef void (*LiteRtDestroyEnvironmentFunction)(LiteRtEnvironment environment);

/// Reads the model in place: the buffer must stay valid, and unchanged, for the model's lifetime.
typedef LiteRtStatus (*LiteRtCreateModelFromBufferFunction)(LiteRtEnvironment environment, const void *buffer,
                                                            size_t size, LiteRtModel *model);
typedef void (*LiteRtDestroyModelFunction)(LiteRtModel model);
typedef LiteRtStatus (*LiteRtGetModelMetadataFunction)(LiteRtModel model, const char *key, const void **buffer,
                                                       size_t *size);
typedef LiteRtStatus (*LiteRtGetNumModelSignaturesFunction)(LiteRtModel model, LiteRtParamIndex *count);
typedef LiteRtStatus (*LiteRtGetModelSignatureFunction)(LiteRtModel model, LiteRtParamIndex index,
                                                        LiteRtSignature *signature);
typedef LiteRtStatus (*LiteRtGetSignatureKeyFunction)(LiteRtSignature signature, const char **key);
typedef LiteRtStatus (*LiteRtGetNumSignatureTensorsFunction)(LiteRtSignature signature, LiteRtParamIndex *count);
typedef LiteRtStatus (*LiteRtGetSignatureTensorByIndexFunction)(LiteRtSignature signature, LiteRtParamIndex index,
                                                                LiteRtTensor *tensor);
typedef LiteRtStatus (*LiteRtGetTensorNameFunction)(LiteRtTensor tensor, const char **name);
typedef LiteRtStatus (*LiteRtGetTensorTypeIdFunction)(LiteRtTensor tensor, int *typeId);
typedef LiteRtStatus (*LiteRtGetRankedTensorTypeFunction)(LiteRtTensor tensor, LiteRtRankedTensorType *type);
typedef LiteRtStatus (*LiteRtGetQuantizationTypeIdFunction)(LiteRtTensor tensor, int *typeId);
typedef LiteRtStatus (*LiteRtGetPerTensorQuantizationFunction)(LiteRtTensor tensor,
                                                               LiteRtQuantizationPerTensor *quantization);

typedef LiteRtStatus (*LiteRtCreateOptionsFunction)(LiteRtOptions *options);
typedef void (*LiteRtDestroyOptionsFunction)(LiteRtOptions options);
typedef LiteRtStatus (*LiteRtSetOptionsHardwareAcceleratorsFunction)(LiteRtOptions options, int accelerators);
typedef LiteRtStatus (*LiteRtCreateOpaqueOptionsFunction)(const char *identifier, void *payload,
                                                          void (*destructor)(void *), LiteRtOpaqueOptions *options);
typedef void (*LiteRtDestroyOpaqueOptionsFunction)(LiteRtOpaqueOptions options);
typedef LiteRtStatus (*LiteRtAddOpaqueOptionsFunction)(LiteRtOptions options, LiteRtOpaqueOptions opaque);

typedef LiteRtStatus (*LiteRtCreateCompiledModelFunction)(LiteRtEnvironment environment, LiteRtModel model,
                                                          LiteRtOptions options, LiteRtCompiledModel *compiled);
typedef void (*LiteRtDestroyCompiledModelFunction)(LiteRtCompiledModel compiled);
typedef LiteRtStatus (*LiteRtRunCompiledModelFunction)(LiteRtCompiledModel compiled, LiteRtParamIndex signature,
                                                       size_t inputCount, LiteRtTensorBuffer *inputs,
                                                       size_t outputCount, LiteRtTensorBuffer *outputs);

/// Gives input `input` of signature `signature` the `dimensionCount` sizes `dimensions`; the model's
/// dimensions of size -1 may change, the others must stay.
typedef LiteRtStatus (*LiteRtCompiledModelResizeInputTensorFunction)(LiteRtCompiledModel compiled,
                                                                     LiteRtParamIndex signature,
                                                                     LiteRtParamIndex input, const int *dimensions,
                                                                     size_t dimensionCount);
/// The layouts of the first `count` outputs of signature `signature`; with `updateAllocation`, after
/// allocating the tensors again for inputs resized since.
typedef LiteRtStatus (*LiteRtGetCompiledModelOutputTensorLayoutsFunction)(LiteRtCompiledModel compiled,
                                                                          LiteRtParamIndex signature, size_t count,
                                                                          LiteRtLayout *layouts,
                                                                          bool updateAllocation);

typedef LiteRtStatus (*LiteRtCreateManagedTensorBufferFunction)(LiteRtEnvironment environment, int bufferType,
                                                                const LiteRtRankedTensorType *type, size_t size,
                                                                LiteRtTensorBuffer *buffer);
typedef void (*LiteRtDestroyTensorBufferFunction)(LiteRtTensorBuffer buffer);
typedef LiteRtStatus (*LiteRtLockTensorBufferFunction)(LiteRtTensorBuffer buffer, void **address, int mode);
typedef LiteRtStatus (*LiteRtUnlockTensorBufferFunction)(LiteRtTensorBuffer buffer);

/// A new memory file (memfd_create with MFD_CLOEXEC) named `name`, for XNNPACK's packed weights: its
/// descriptor, or -1 with errno set. Swift's Glibc module leaves memfd_create out (it needs _GNU_SOURCE).
int swiftvision_memory_file(const char *name);
/// A new unnamed file in `folder` (open with O_TMPFILE), read and written, gone once closed: a private copy
/// of a model file that no other process can change. Its descriptor, or -1 with errno set.
int swiftvision_private_file(const char *folder);

#endif
