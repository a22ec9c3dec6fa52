// The OpenCV calls behind rectangle detection, barcode and text pre-processing: filters, edges,
// contours and geometric warps. Same rules as CVisionShim.h: one OpenCV call per function on
// caller-owned memory, 0 on success, -1 with sv_last_error() on failure.
#ifndef SWIFTVISION_CVISIONSHIM_ANALYSIS_H
#define SWIFTVISION_CVISIONSHIM_ANALYSIS_H

#include "CVisionShim.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Morphological operations with an elliptical kernel (OpenCV's cv::MorphTypes).
typedef enum {
    SV_MORPH_ERODE = 0,
    SV_MORPH_DILATE = 1,
    SV_MORPH_OPEN = 2,
    SV_MORPH_CLOSE = 3,
} SVMorphology;

/// Gaussian blur with standard deviation `sigma` in both directions.
int sv_gaussian_blur(SVImageView source, SVImageView destination, double sigma);
/// Canny edges of an 8-bit gray image: 255 on edges, 0 elsewhere.
int sv_canny(SVImageView source, SVImageView destination, double lowThreshold, double highThreshold);
/// The Canny edges of an 8-bit gray image, pixel for pixel those of sv_canny (OpenCV's cv::Canny with the
/// L2 gradient), by a path of its own written for fewer mispredicted branches, in about half the time.
int sv_fast_canny(SVImageView source, SVImageView destination, double lowThreshold, double highThreshold);
/// sv_fast_canny's edges for `lowThreshold` and `highThreshold` into `destination`, and into `maxima` (8-bit,
/// two pixels wider and taller than the image) the gradient's local maxima classified against a second pair,
/// `laterLow` and `laterHigh`, which sv_trace_canny turns into that pair's edges without a second gradient.
int sv_fast_canny_pair(SVImageView source, SVImageView destination, SVImageView maxima, double lowThreshold,
                       double highThreshold, double laterLow, double laterHigh);
/// The edges of the second pair of sv_fast_canny_pair from its `maxima`, into `destination` (the image's
/// size): pixel for pixel sv_fast_canny's edges for that pair.
int sv_trace_canny(SVImageView maxima, SVImageView destination);
/// 255 where a pixel is brighter than the mean of its `blockSize` neighbourhood minus `offset`
/// (darker, when `inverted` is non-zero), 0 elsewhere.
int sv_adaptive_threshold(SVImageView source, SVImageView destination, int32_t blockSize, double offset, int inverted);
/// 255 where a pixel is brighter than `level` (not brighter, when `inverted` is non-zero), 0 elsewhere.
int sv_threshold(SVImageView source, SVImageView destination, double level, int inverted);
/// Erosion, dilation, opening or closing with an elliptical kernel of `kernelSize` pixels.
int sv_morphology(SVImageView source, SVImageView destination, SVMorphology operation, int32_t kernelSize);
/// destination = numerator × scale / denominator, saturated; 0 where the denominator is 0.
int sv_divide(SVImageView numerator, SVImageView denominator, SVImageView destination, double scale);
/// destination = 255 − source (bitwise not).
int sv_invert(SVImageView source, SVImageView destination);

/// Outlines of the non-zero regions of an 8-bit image, with straight runs compressed to their end points:
/// every contour (outer and inner), or when `outerOnly` is non-zero only the outermost ones (no hole, and
/// nothing inside a hole). `points` receives x, y pairs of all contours one after another and `lengths`
/// the number of points of each; release both with sv_free.
int sv_find_contours(SVImageView binary, int outerOnly, int32_t **points, int32_t **lengths, int32_t *count);
/// Straight line segments in an 8-bit gray image: the LSD line segment detector (Grompone von Gioi et al.,
/// IPOL 2012) with the settings of OpenCV's by default (segments.cpp says where they differ). `segments`
/// receives x1, y1, x2, y2 for each; release it with sv_free.
int sv_line_segments(SVImageView gray, float **segments, int32_t *count);
/// Steps in gray level across a line, at each of `baseCount` points `bases` (x, y pairs) on it: the profile
/// at `base + across × offset` for each of `offsetCount` (at least 5) `offsets` half a pixel apart, each the
/// mean of three levels interpolated bilinearly (points outside read the nearest edge) at that point and a
/// step of `along` before and after it, and `steps` receives for each base, one after another, the profile at
/// each offset but the last four less the profile at the offset four before it (the step over two pixels).
int sv_profile_steps(SVImageView gray, const double *bases, int32_t baseCount, const double across[2],
                     const double along[2], const double *offsets, int32_t offsetCount, double *steps);
/// The convex hull of `count` points (x, y pairs), clockwise with the y axis up (counter-clockwise on the screen,
/// where y grows downwards); `hull` holds room
/// for `count` points and `hullCount` receives how many were written.
int sv_convex_hull(const int32_t *xy, int32_t count, int32_t *hull, int32_t *hullCount);
/// A closed polygon with fewer vertices within `epsilon` pixels of the closed polygon `xy`
/// (Douglas–Peucker); `output` holds room for `count` points.
int sv_approximate_polygon(const int32_t *xy, int32_t count, double epsilon, int32_t *output, int32_t *outputCount);

/// Fills the convex polygon of `count` points (x, y pairs) with `value`.
int sv_fill_convex_polygon(SVImageView image, const double *xy, int32_t count, const double value[4]);

/// The 3×3 homography (row-major) that maps the four `source` points onto the four `destination` points.
int sv_perspective_transform(const double source[8], const double destination[8], double matrix[9]);
/// destination(x, y) = source(matrix⁻¹ · (x, y, 1)): the source warped by the homography `matrix`;
/// pixels from outside the source take `border`.
int sv_warp_perspective(SVImageView source, SVImageView destination, const double matrix[9],
                        SVInterpolation interpolation, const double border[4]);

#ifdef __cplusplus
}
#endif

#endif
