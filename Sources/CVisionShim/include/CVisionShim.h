// A plain C interface over the few OpenCV calls SwiftVision needs.
// Every function wraps one OpenCV call on caller-owned memory and turns C++
// exceptions into a non-zero status; sv_last_error() then describes the failure.
// OpenCV itself runs in libSwiftVisionImaging.so and libSwiftVisionMedia.so, loaded on first use: when one
// cannot be loaded, the functions that need it fail and sv_last_error says why.
#ifndef SWIFTVISION_CVISIONSHIM_H
#define SWIFTVISION_CVISIONSHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element depth of a pixel channel.
typedef enum {
    SV_DEPTH_U8 = 0,
    SV_DEPTH_F32 = 5,
} SVDepth;

/// A view of interleaved pixels owned by the caller.
typedef struct {
    uint8_t *data;
    int32_t width;
    int32_t height;
    int32_t bytesPerRow;
    int32_t channels;
    SVDepth depth;
} SVImageView;

/// Colour conversions, valued as OpenCV's codes. Each code also serves its mirror
/// (BGR→RGB swaps red and blue either way).
typedef enum {
    SV_COLOR_ADD_ALPHA = 0,            // BGR2BGRA
    SV_COLOR_DROP_ALPHA = 1,           // BGRA2BGR
    SV_COLOR_SWAP_ADD_ALPHA = 2,       // RGB2BGRA
    SV_COLOR_SWAP_DROP_ALPHA = 3,      // BGRA2RGB
    SV_COLOR_SWAP = 4,                 // BGR2RGB
    SV_COLOR_SWAP_KEEP_ALPHA = 5,      // BGRA2RGBA
    SV_COLOR_BGR_TO_GRAY = 6,
    SV_COLOR_RGB_TO_GRAY = 7,
    SV_COLOR_GRAY_TO_3 = 8,
    SV_COLOR_GRAY_TO_4 = 9,
    SV_COLOR_BGRA_TO_GRAY = 10,
    SV_COLOR_RGBA_TO_GRAY = 11,
    SV_COLOR_NV12_TO_RGB = 90,
    SV_COLOR_NV12_TO_BGR = 91,
} SVColorConversion;

/// Interpolation for resizing.
typedef enum {
    SV_INTER_NEAREST = 0,
    SV_INTER_LINEAR = 1,
    SV_INTER_CUBIC = 2,
    SV_INTER_AREA = 3,
} SVInterpolation;

/// Rotation by quarter turns clockwise (OpenCV's cv::RotateFlags).
typedef enum {
    SV_ROTATE_90_CLOCKWISE = 0,
    SV_ROTATE_180 = 1,
    SV_ROTATE_90_COUNTERCLOCKWISE = 2,
} SVRotation;

/// Flip axes (OpenCV's flipCode).
typedef enum {
    SV_FLIP_VERTICAL = 0,
    SV_FLIP_HORIZONTAL = 1,
    SV_FLIP_BOTH = -1,
} SVFlip;

/// Text of the last failure on this thread.
const char *sv_last_error(void);

/// Whether libpng's, libjpeg's and FFmpeg's own messages about corrupt data reach standard error
/// (off at start; a user's OPENCV_FFMPEG_LOGLEVEL is kept).
void sv_set_codec_messages(int shown);
/// 1 after sv_set_codec_messages(1), else 0.
int sv_codec_messages_shown(void);

/// Sets how many threads OpenCV's parallel loops use (cv::setNumThreads) and returns the count now in use;
/// before OpenCV is loaded (on the first call that needs it) the count is kept, applied then, and returned as given.
int32_t sv_set_thread_count(int32_t count);

/// Decodes an encoded image into `destination` (8-bit BGR), shrinking a JPEG by `reduction` (1, 2, 4 or 8)
/// in the decoder. JPEG, PNG and WebP are read by libjpeg-turbo, libpng and libwebp with OpenCV's settings;
/// HEIF (HEIC) and AVIF by libheif and GIF (its first image) by leptonica, each loaded on first use; other formats by OpenCV's imgcodecs in
/// libSwiftVisionMedia.so. Returns 0 on success, 1 when the decoded size differs from the destination (the
/// size is written to `width`/`height`), -1 on failure.
int sv_decode(const uint8_t *bytes, size_t length, int reduction, SVImageView destination, int32_t *width,
              int32_t *height);

/// What the file type box that opens `bytes` names (ISO/IEC 23008-12, the AV1 image format).
typedef enum {
    SV_HEIF_NONE = 0,
    /// HEIF with HEVC images (HEIC), or a HEIF whose brands name no codec.
    SV_HEIF_HEVC = 1,
    /// AVIF: HEIF with AV1 images and no HEVC brand.
    SV_HEIF_AV1 = 2,
} SVHeifKind;

/// Which HEIF `bytes` are, from their file type box alone: the brands are read, nothing is decoded.
int sv_heif_kind(const uint8_t *bytes, size_t length);

/// The size of the primary image of HEIF or AVIF `bytes`, upright (after the file's rotation and crop), read
/// by libheif without decoding pixels. Returns 0 on success, -1 on failure (sv_last_error says why).
int sv_heif_size(const uint8_t *bytes, size_t length, int32_t *width, int32_t *height);

/// Encodes an 8-bit BGR, BGRA or gray image; `extension` is ".png", ".jpg" or ".webp" (lossless above
/// quality 100), or another extension OpenCV's imgcodecs writes (".bmp", ".tiff").
/// The encoded bytes are returned in `output`, to be released with sv_free.
int sv_encode(SVImageView source, const char *extension, int quality, uint8_t **output, size_t *length);

/// Releases memory returned by the shim.
void sv_free(void *pointer);

int sv_resize(SVImageView source, SVImageView destination, SVInterpolation interpolation);
int sv_rotate(SVImageView source, SVImageView destination, SVRotation rotation);
int sv_flip(SVImageView source, SVImageView destination, SVFlip flip);
int sv_convert_color(SVImageView source, SVImageView destination, SVColorConversion conversion);
/// Fills `destination` by sampling `source` at `matrix` (2×3, row-major) applied to each destination pixel
/// index (cv::warpAffine with WARP_INVERSE_MAP); outside pixels get `border`, or, when `border` is NULL,
/// repeat the nearest edge pixel (BORDER_REPLICATE).
int sv_warp_affine(SVImageView source, SVImageView destination, const double matrix[6],
                   SVInterpolation interpolation, const double border[4]);
int sv_copy(SVImageView source, SVImageView destination);
int sv_fill(SVImageView destination, const double value[4]);
/// Converts to 32-bit float and normalises each channel: (value - mean) / std.
int sv_normalize(SVImageView source, SVImageView destination, const double mean[4], const double std[4]);
/// destination = source × scale + offset, converted to the destination's depth with rounding and
/// saturation (cv::Mat::convertTo): 32-bit float 0–1 ↔ 8-bit 0–255 with scale 255 or 1/255.
int sv_convert_scale(SVImageView source, SVImageView destination, double scale, double offset);
/// destination = first × weight + second × (1 − weight), pixel by pixel (cv::blendLinear): `first`,
/// `second` and `destination` have the same size and type, `weights` is one 32-bit float channel in 0…1.
int sv_blend_weighted(SVImageView first, SVImageView second, SVImageView weights, SVImageView destination);

int sv_draw_rectangle(SVImageView image, double x, double y, double width, double height,
                      const double color[4], int thickness);
int sv_draw_polyline(SVImageView image, const double *xy, int32_t pointCount, int closed,
                     const double color[4], int thickness);
int sv_draw_circle(SVImageView image, double x, double y, double radius, const double color[4], int thickness);
int sv_draw_text(SVImageView image, const char *text, double x, double y, double scale,
                 const double color[4], int thickness);
/// Size of `text` as sv_draw_text draws it; `baseline` receives the descent below the origin.
int sv_text_size(const char *text, double scale, int thickness, int32_t *width, int32_t *height, int32_t *baseline);

// Video, cameras and trackers run in libSwiftVisionMedia.so, loaded on first use: when it cannot be
// loaded, the functions below fail and sv_last_error says why.

/// An open video file being read (cv::VideoCapture).
typedef struct SVVideoReader SVVideoReader;
/// An open video file being written (cv::VideoWriter).
typedef struct SVVideoWriter SVVideoWriter;

/// Opens `path` (a file or a network stream's URL); returns NULL on failure (see sv_last_error). FFmpeg gives
/// up opening after `openTimeoutMs` milliseconds, and a frame that takes longer than `readTimeoutMs` to
/// arrive ends the reading.
SVVideoReader *sv_video_reader_open(const char *path, int32_t openTimeoutMs, int32_t readTimeoutMs);
/// Opens V4L2 camera `index` (/dev/videoN); NULL on failure (see sv_last_error).
SVVideoReader *sv_video_reader_open_camera(int32_t index);
/// Frame size, frames per second and frame count as the container reports them (count may be 0 or an estimate).
void sv_video_reader_properties(SVVideoReader *reader, int32_t *width, int32_t *height, double *fps, int64_t *frameCount);
/// Decodes the next frame as 8-bit BGR into `destination` (which must match the frame size).
/// Returns 0 for a frame, 1 at the end of the video, -1 on failure. `timestampMs` receives the frame's position.
int sv_video_reader_read(SVVideoReader *reader, SVImageView destination, double *timestampMs);
void sv_video_reader_close(SVVideoReader *reader);

/// Creates `path` with the codec named by the four characters of `fourcc`; returns NULL on failure.
SVVideoWriter *sv_video_writer_open(const char *path, const char *fourcc, double fps, int32_t width, int32_t height);
/// Appends one 8-bit BGR frame of the writer's size.
int sv_video_writer_write(SVVideoWriter *writer, SVImageView frame);
void sv_video_writer_close(SVVideoWriter *writer);

/// A single-object tracker of OpenCV contrib (cv::TrackerKCF or cv::TrackerCSRT).
typedef struct SVObjectTracker SVObjectTracker;

typedef enum {
    SV_TRACKER_KCF = 0,
    SV_TRACKER_CSRT = 1,
} SVTrackerKind;

/// Creates a tracker and starts it on the box (`x`, `y`, `width`, `height`) of `image` (8-bit BGR).
/// Returns NULL on failure.
SVObjectTracker *sv_tracker_create(SVTrackerKind kind, SVImageView image, int32_t x, int32_t y, int32_t width, int32_t height);
/// Follows the object into `image`; returns 1 and the new box when found, 0 when lost, -1 on failure.
int sv_tracker_update(SVObjectTracker *tracker, SVImageView image, int32_t *x, int32_t *y, int32_t *width, int32_t *height);
void sv_tracker_release(SVObjectTracker *tracker);

/// Normalised cross-correlation (cv::matchTemplate, TM_CCOEFF_NORMED) of two images of equal size and type.
int sv_correlation(SVImageView first, SVImageView second, double *score);

#ifdef __cplusplus
}
#endif

#include "CVisionShimAnalysis.h"
#include "CVisionShimAppearance.h"

#endif
