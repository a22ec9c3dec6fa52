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

/// Decodes any format OpenCV's imgcodecs reads, at full size, into 8-bit BGR; OpenCV's own messages about
/// a failed decode reach standard error only when `showMessages` is non-zero.
int svm_decode(const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height,
               int showMessages);
/// Encodes with OpenCV's imgcodecs; `output` is allocated with malloc.
int svm_encode(SVImageView source, const char *extension, int quality, uint8_t **output, size_t *length);

SVVideoReader *svm_video_reader_open(const char *path);
SVVideoReader *svm_video_reader_open_camera(int32_t index);
void svm_video_reader_properties(SVVideoReader *reader, int32_t *width, int32_t *height, double *fps, int64_t *frameCount);
int svm_video_reader_read(SVVideoReader *reader, SVImageView destination, double *timestampMs);
void svm_video_reader_close(SVVideoReader *reader);

SVVideoWriter *svm_video_writer_open(const char *path, const char *fourcc, double fps, int32_t width, int32_t height);
int svm_video_writer_write(SVVideoWriter *writer, SVImageView frame);
void svm_video_writer_close(SVVideoWriter *writer);

SVObjectTracker *svm_tracker_create(SVTrackerKind kind, SVImageView image, int32_t x, int32_t y, int32_t width, int32_t height);
int svm_tracker_update(SVObjectTracker *tracker, SVImageView image, int32_t *x, int32_t *y, int32_t *width, int32_t *height);
void svm_tracker_release(SVObjectTracker *tracker);

#ifdef __cplusplus
}
#endif

#endif
