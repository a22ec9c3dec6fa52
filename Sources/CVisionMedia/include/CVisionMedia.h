// The OpenCV modules that pull in large worlds of libraries (imgcodecs: GDAL; videoio: FFmpeg and
// GStreamer; tracking), built as their own shared library, libSwiftVisionMedia.so. The C shim loads it
// with dlopen the first time a video, camera, tracker or an image format other than JPEG, PNG and WebP
// is used, so a process that never opens one never maps those libraries.
// Each function behaves as the sv_ function of the same name in CVisionShim.h.
#ifndef SWIFTVISION_CVISIONMEDIA_H
#define SWIFTVISION_CVISIONMEDIA_H

#include "../../CVisionShim/include/CVisionShim.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Text of the last failure on this thread.
const char *svm_last_error(void);

/// The functions the shim forwards, each as X(result, name, parameters), declared below as svm_<name>:
/// - decode: any format OpenCV's imgcodecs reads, at full size, into 8-bit BGR; OpenCV's own messages about a
///   failed decode reach standard error only when `showMessages` is non-zero.
/// - encode: with OpenCV's imgcodecs; `output` is allocated with malloc.
/// - video_reader_*, video_writer_*, tracker_*: as the sv_ functions of the same names.
#define SV_MEDIA_FUNCTIONS(X)                                                                                          \
    X(int, decode,                                                                                                    \
      (const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height,                 \
       int showMessages))                                                                                             \
    X(int, encode, (SVImageView source, const char *extension, int quality, uint8_t **output, size_t *length))       \
    X(SVVideoReader *, video_reader_open, (const char *path, int32_t openTimeoutMs, int32_t readTimeoutMs))           \
    X(SVVideoReader *, video_reader_open_camera, (int32_t index))                                                     \
    X(void, video_reader_properties,                                                                                  \
      (SVVideoReader * reader, int32_t *width, int32_t *height, double *fps, int64_t *frameCount))                    \
    X(int, video_reader_read, (SVVideoReader * reader, SVImageView destination, double *timestampMs))                 \
    X(void, video_reader_close, (SVVideoReader * reader))                                                             \
    X(SVVideoWriter *, video_writer_open,                                                                             \
      (const char *path, const char *fourcc, double fps, int32_t width, int32_t height))                              \
    X(int, video_writer_write, (SVVideoWriter * writer, SVImageView frame))                                           \
    X(void, video_writer_close, (SVVideoWriter * writer))                                                             \
    X(SVObjectTracker *, tracker_create,                                                                              \
      (SVTrackerKind kind, SVImageView image, int32_t x, int32_t y, int32_t width, int32_t height))                   \
    X(int, tracker_update,                                                                                            \
      (SVObjectTracker * tracker, SVImageView image, int32_t *x, int32_t *y, int32_t *width, int32_t *height))        \
    X(void, tracker_release, (SVObjectTracker * tracker))

#define SV_MEDIA_DECLARATION(result, name, parameters) result svm_##name parameters;
SV_MEDIA_FUNCTIONS(SV_MEDIA_DECLARATION)
#undef SV_MEDIA_DECLARATION

/// One function of ``SV_MEDIA_FUNCTIONS`` as the text "result name(parameters);": over the whole list, the
/// library's interface (see ``SV_INTERFACE_ENTRY`` in ShimSupport.hpp).
#define SV_MEDIA_INTERFACE_ENTRY(result, name, parameters) #result " " #name #parameters ";"

#ifdef __cplusplus
}
#endif

#endif
