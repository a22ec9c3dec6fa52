#include "CVisionImaging.h"
#include "OpenCVSupport.hpp"

#include <opencv2/imgproc.hpp>

#include <cstdlib>
#include <vector>

static_assert(int(SV_MORPH_ERODE) == cv::MORPH_ERODE && int(SV_MORPH_DILATE) == cv::MORPH_DILATE &&
                  int(SV_MORPH_OPEN) == cv::MORPH_OPEN && int(SV_MORPH_CLOSE) == cv::MORPH_CLOSE,
              "morphology codes");

using namespace shim;

namespace {

/// `count` x, y pairs as OpenCV points, sharing no memory.
std::vector<cv::Point> points(const int32_t *xy, int32_t count) {
    std::vector<cv::Point> result(static_cast<size_t>(count));
    for (int32_t index = 0; index < count; ++index) result[index] = cv::Point(xy[2 * index], xy[2 * index + 1]);
    return result;
}

void write(const std::vector<cv::Point> &source, int32_t *xy, int32_t *count) {
    for (size_t index = 0; index < source.size(); ++index) {
        xy[2 * index] = source[index].x;
        xy[2 * index + 1] = source[index].y;
    }
    *count = static_cast<int32_t>(source.size());
}

cv::Mat doubles(const double *values, int rows, int columns) {
    return cv::Mat(rows, columns, CV_64F, const_cast<double *>(values));
}

}  // namespace

extern "C" {

int svi_gaussian_blur(SVImageView source, SVImageView destination, double sigma) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::GaussianBlur(asMat(source), target, cv::Size(), sigma, sigma, cv::BORDER_REPLICATE);
        return checkedInPlace(target, destination);
    });
}

int svi_canny(SVImageView source, SVImageView destination, double lowThreshold, double highThreshold) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::Canny(asMat(source), target, lowThreshold, highThreshold, 3, true);
        return checkedInPlace(target, destination);
    });
}

int svi_adaptive_threshold(SVImageView source, SVImageView destination, int32_t blockSize, double offset, int inverted) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::adaptiveThreshold(asMat(source), target, 255, cv::ADAPTIVE_THRESH_MEAN_C,
                              inverted ? cv::THRESH_BINARY_INV : cv::THRESH_BINARY, blockSize, offset);
        return checkedInPlace(target, destination);
    });
}

int svi_threshold(SVImageView source, SVImageView destination, double level, int inverted) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::threshold(asMat(source), target, level, 255, inverted ? cv::THRESH_BINARY_INV : cv::THRESH_BINARY);
        return checkedInPlace(target, destination);
    });
}

int svi_morphology(SVImageView source, SVImageView destination, SVMorphology operation, int32_t kernelSize) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(kernelSize, kernelSize));
        cv::morphologyEx(asMat(source), target, operation, kernel, cv::Point(-1, -1), 1, cv::BORDER_REPLICATE);
        return checkedInPlace(target, destination);
    });
}

int svi_divide(SVImageView numerator, SVImageView denominator, SVImageView destination, double scale) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::divide(asMat(numerator), asMat(denominator), target, scale);
        return checkedInPlace(target, destination);
    });
}

int svi_invert(SVImageView source, SVImageView destination) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::bitwise_not(asMat(source), target);
        return checkedInPlace(target, destination);
    });
}

int svi_find_contours(SVImageView binary, int outerOnly, int32_t **points, int32_t **lengths, int32_t *count) {
    return guarded([&] {
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(asMat(binary), contours, outerOnly ? cv::RETR_EXTERNAL : cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
        size_t total = 0;
        for (const auto &contour : contours) total += contour.size();
        *points = static_cast<int32_t *>(std::malloc(sizeof(int32_t) * (2 * total + 1)));
        *lengths = static_cast<int32_t *>(std::malloc(sizeof(int32_t) * (contours.size() + 1)));
        if (*points == nullptr || *lengths == nullptr) {
            std::free(*points);
            std::free(*lengths);
            lastError = "out of memory";
            return -1;
        }
        int32_t *cursor = *points;
        for (size_t index = 0; index < contours.size(); ++index) {
            int32_t written = 0;
            write(contours[index], cursor, &written);
            (*lengths)[index] = written;
            cursor += 2 * written;
        }
        *count = static_cast<int32_t>(contours.size());
        return 0;
    });
}

int svi_line_segments(SVImageView gray, float **segments, int32_t *count) {
    return guarded([&] {
        std::vector<cv::Vec4f> lines;
        cv::createLineSegmentDetector()->detect(asMat(gray), lines);
        *segments = static_cast<float *>(std::malloc(sizeof(float) * (4 * lines.size() + 1)));
        if (*segments == nullptr) {
            lastError = "out of memory";
            return -1;
        }
        for (size_t index = 0; index < lines.size(); ++index) {
            for (int element = 0; element < 4; ++element) (*segments)[4 * index + element] = lines[index][element];
        }
        *count = static_cast<int32_t>(lines.size());
        return 0;
    });
}

int svi_convex_hull(const int32_t *xy, int32_t count, int32_t *hull, int32_t *hullCount) {
    return guarded([&] {
        std::vector<cv::Point> result;
        cv::convexHull(points(xy, count), result, true);
        write(result, hull, hullCount);
        return 0;
    });
}

int svi_approximate_polygon(const int32_t *xy, int32_t count, double epsilon, int32_t *output, int32_t *outputCount) {
    return guarded([&] {
        std::vector<cv::Point> result;
        cv::approxPolyDP(points(xy, count), result, epsilon, true);
        write(result, output, outputCount);
        return 0;
    });
}

int svi_fill_convex_polygon(SVImageView image, const double *xy, int32_t count, const double value[4]) {
    return guarded([&] {
        std::vector<cv::Point> corners(static_cast<size_t>(count));
        for (int32_t index = 0; index < count; ++index) {
            corners[index] = cv::Point(cvRound(xy[2 * index]), cvRound(xy[2 * index + 1]));
        }
        cv::Mat target = asMat(image);
        cv::fillConvexPoly(target, corners, scalar(value));
        return 0;
    });
}

int svi_perspective_transform(const double source[8], const double destination[8], double matrix[9]) {
    return guarded([&] {
        cv::Point2f from[4], to[4];
        for (int index = 0; index < 4; ++index) {
            from[index] = cv::Point2f(static_cast<float>(source[2 * index]), static_cast<float>(source[2 * index + 1]));
            to[index] = cv::Point2f(static_cast<float>(destination[2 * index]),
                                    static_cast<float>(destination[2 * index + 1]));
        }
        cv::getPerspectiveTransform(from, to).copyTo(doubles(matrix, 3, 3));
        return 0;
    });
}

int svi_warp_perspective(SVImageView source, SVImageView destination, const double matrix[9],
                        SVInterpolation interpolation, const double border[4]) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::warpPerspective(asMat(source), target, doubles(matrix, 3, 3), target.size(), interpolation,
                            cv::BORDER_CONSTANT, scalar(border));
        return checkedInPlace(target, destination);
    });
}

}  // extern "C"
