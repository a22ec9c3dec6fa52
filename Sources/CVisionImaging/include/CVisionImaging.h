// OpenCV's core and imgproc modules (and the BLAS, LAPACK, TBB and X11 libraries Debian's build of core
// pulls in), built as their own shared library, libSwiftVisionImaging.so. The C shim loads it with dlopen
// the first time an image is resized, converted, drawn on or analysed (imaging_library.cpp), so a process
// that only reads image headers, or prints its help, never maps OpenCV.
// Each svi_ function behaves as the sv_ function of the same name in CVisionShim.h.
#ifndef SWIFTVISION_CVISIONIMAGING_H
#define SWIFTVISION_CVISIONIMAGING_H

#include "../../CVisionShim/include/CVisionShim.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The functions the shim forwards, each as X(name, parameters, arguments): the shim's sv_<name> calls the
/// library's svi_<name>, both returning 0 on success and -1 (with the last error set) on failure.
#define SV_IMAGING_FUNCTIONS(X)                                                                                        \
    X(resize, (SVImageView source, SVImageView destination, SVInterpolation interpolation),                           \
      (source, destination, interpolation))                                                                           \
    X(rotate, (SVImageView source, SVImageView destination, SVRotation rotation), (source, destination, rotation))    \
    X(flip, (SVImageView source, SVImageView destination, SVFlip flip), (source, destination, flip))                  \
    X(convert_color, (SVImageView source, SVImageView destination, SVColorConversion conversion),                     \
      (source, destination, conversion))                                                                              \
    X(warp_affine,                                                                                                    \
      (SVImageView source, SVImageView destination, const double matrix[6], SVInterpolation interpolation,            \
       const double border[4]),                                                                                       \
      (source, destination, matrix, interpolation, border))                                                           \
    X(copy, (SVImageView source, SVImageView destination), (source, destination))                                     \
    X(fill, (SVImageView destination, const double value[4]), (destination, value))                                   \
    X(normalize, (SVImageView source, SVImageView destination, const double mean[4], const double std[4]),            \
      (source, destination, mean, std))                                                                               \
    X(convert_scale, (SVImageView source, SVImageView destination, double scale, double offset),                      \
      (source, destination, scale, offset))                                                                           \
    X(blend_weighted, (SVImageView first, SVImageView second, SVImageView weights, SVImageView destination),          \
      (first, second, weights, destination))                                                                          \
    X(draw_rectangle,                                                                                                 \
      (SVImageView image, double x, double y, double width, double height, const double color[4], int thickness),     \
      (image, x, y, width, height, color, thickness))                                                                 \
    X(draw_polyline,                                                                                                  \
      (SVImageView image, const double *xy, int32_t pointCount, int closed, const double color[4], int thickness),    \
      (image, xy, pointCount, closed, color, thickness))                                                              \
    X(draw_circle, (SVImageView image, double x, double y, double radius, const double color[4], int thickness),      \
      (image, x, y, radius, color, thickness))                                                                        \
    X(draw_text,                                                                                                      \
      (SVImageView image, const char *text, double x, double y, double scale, const double color[4], int thickness),  \
      (image, text, x, y, scale, color, thickness))                                                                   \
    X(text_size, (const char *text, double scale, int thickness, int32_t *width, int32_t *height, int32_t *baseline), \
      (text, scale, thickness, width, height, baseline))                                                              \
    X(correlation, (SVImageView first, SVImageView second, double *score), (first, second, score))                    \
    X(gaussian_blur, (SVImageView source, SVImageView destination, double sigma), (source, destination, sigma))       \
    X(canny, (SVImageView source, SVImageView destination, double lowThreshold, double highThreshold),                \
      (source, destination, lowThreshold, highThreshold))                                                             \
    X(fast_canny, (SVImageView source, SVImageView destination, double lowThreshold, double highThreshold),           \
      (source, destination, lowThreshold, highThreshold))                                                             \
    X(fast_canny_pair,                                                                                                \
      (SVImageView source, SVImageView destination, SVImageView maxima, double lowThreshold, double highThreshold,    \
       double laterLow, double laterHigh),                                                                            \
      (source, destination, maxima, lowThreshold, highThreshold, laterLow, laterHigh))                                \
    X(trace_canny, (SVImageView maxima, SVImageView destination), (maxima, destination))                              \
    X(adaptive_threshold,                                                                                             \
      (SVImageView source, SVImageView destination, int32_t blockSize, double offset, int inverted),                  \
      (source, destination, blockSize, offset, inverted))                                                             \
    X(threshold, (SVImageView source, SVImageView destination, double level, int inverted),                           \
      (source, destination, level, inverted))                                                                         \
    X(morphology, (SVImageView source, SVImageView destination, SVMorphology operation, int32_t kernelSize),          \
      (source, destination, operation, kernelSize))                                                                   \
    X(divide, (SVImageView numerator, SVImageView denominator, SVImageView destination, double scale),                \
      (numerator, denominator, destination, scale))                                                                   \
    X(invert, (SVImageView source, SVImageView destination), (source, destination))                                   \
    X(find_contours, (SVImageView binary, int outerOnly, int32_t **points, int32_t **lengths, int32_t *count),        \
      (binary, outerOnly, points, lengths, count))                                                                    \
    X(line_segments, (SVImageView gray, float **segments, int32_t *count), (gray, segments, count))                   \
    X(profile_steps,                                                                                                  \
      (SVImageView gray, const double *bases, int32_t baseCount, const double across[2], const double along[2],       \
       const double *offsets, int32_t offsetCount, double *steps),                                                     \
      (gray, bases, baseCount, across, along, offsets, offsetCount, steps))                                           \
    X(convex_hull, (const int32_t *xy, int32_t count, int32_t *hull, int32_t *hullCount), (xy, count, hull, hullCount)) \
    X(approximate_polygon,                                                                                            \
      (const int32_t *xy, int32_t count, double epsilon, int32_t *output, int32_t *outputCount),                      \
      (xy, count, epsilon, output, outputCount))                                                                      \
    X(fill_convex_polygon, (SVImageView image, const double *xy, int32_t count, const double value[4]),               \
      (image, xy, count, value))                                                                                      \
    X(perspective_transform, (const double source[8], const double destination[8], double matrix[9]),                 \
      (source, destination, matrix))                                                                                  \
    X(warp_perspective,                                                                                               \
      (SVImageView source, SVImageView destination, const double matrix[9], SVInterpolation interpolation,            \
       const double border[4]),                                                                                       \
      (source, destination, matrix, interpolation, border))                                                           \
    X(match_template, (SVImageView image, SVImageView templ, SVImageView scores), (image, templ, scores))

/// Text of the last failure on this thread.
const char *svi_last_error(void);

/// cv::setNumThreads(count), then the count in use (cv::getNumThreads).
int32_t svi_set_thread_count(int32_t count);

#define SV_IMAGING_DECLARATION(name, parameters, arguments) int svi_##name parameters;
SV_IMAGING_FUNCTIONS(SV_IMAGING_DECLARATION)
#undef SV_IMAGING_DECLARATION

#ifdef __cplusplus
}
#endif

#endif
