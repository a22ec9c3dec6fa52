// Views as cv::Mat, for the libraries that run OpenCV (libSwiftVisionImaging.so, libSwiftVisionMedia.so).
#ifndef SWIFTVISION_OPENCVSUPPORT_HPP
#define SWIFTVISION_OPENCVSUPPORT_HPP

#include "../CVisionShim/ShimSupport.hpp"

#include <opencv2/core.hpp>

namespace shim {

inline cv::Mat asMat(const SVImageView &view) {
    return cv::Mat(view.height, view.width, CV_MAKETYPE(view.depth, view.channels), view.data,
                   static_cast<size_t>(view.bytesPerRow));
}

inline cv::Scalar scalar(const double value[4]) { return cv::Scalar(value[0], value[1], value[2], value[3]); }

/// Writes into `destination` in place; fails if OpenCV had to reallocate it.
inline int checkedInPlace(const cv::Mat &result, const SVImageView &destination) {
    if (result.data != destination.data) {
        lastError = "destination view has the wrong size or type";
        return -1;
    }
    return 0;
}

}  // namespace shim

#endif
