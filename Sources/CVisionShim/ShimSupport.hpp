// Helpers shared by the shim's translation units: views as cv::Mat, exception guarding, the last error.
#ifndef SWIFTVISION_SHIMSUPPORT_HPP
#define SWIFTVISION_SHIMSUPPORT_HPP

#include "include/CVisionShim.h"

#include <opencv2/core.hpp>

#include <exception>
#include <string>

namespace shim {

/// The text sv_last_error returns, per thread.
inline thread_local std::string lastError;

inline cv::Mat asMat(const SVImageView &view) {
    return cv::Mat(view.height, view.width, CV_MAKETYPE(view.depth, view.channels), view.data,
                   static_cast<size_t>(view.bytesPerRow));
}

inline cv::Scalar scalar(const double value[4]) { return cv::Scalar(value[0], value[1], value[2], value[3]); }

/// Runs `body`, turning exceptions into -1 and a message for sv_last_error.
template <typename Body> int guarded(Body body) {
    try {
        return body();
    } catch (const cv::Exception &error) {
        lastError = error.what();
    } catch (const std::exception &error) {
        lastError = error.what();
    } catch (...) {
        lastError = "unknown C++ exception";
    }
    return -1;
}

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
