// The OpenCV calls behind appearance checks of tracked objects: where a template looks most alike in an
// image. Same rules as CVisionShim.h: one OpenCV call per function on caller-owned memory, 0 on
// success, -1 with sv_last_error() on failure.
#ifndef SWIFTVISION_CVISIONSHIM_APPEARANCE_H
#define SWIFTVISION_CVISIONSHIM_APPEARANCE_H

#include "CVisionShim.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Normalised cross-correlation (cv::matchTemplate, TM_CCOEFF_NORMED) of `templ` at every place in `image`
/// (same type, `templ` no larger): `scores` is a one-channel 32-bit float view of
/// (image width − templ width + 1) × (image height − templ height + 1), its top-left value the score of
/// `templ` placed at the image's top-left corner.
int sv_match_template(SVImageView image, SVImageView templ, SVImageView scores);

#ifdef __cplusplus
}
#endif

#endif
