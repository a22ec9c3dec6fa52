// libSwiftVisionImaging.so: OpenCV's core and imgproc behind the functions of CVisionImaging.h (colour,
// geometry, drawing, normalisation); analysis.cpp and appearance.cpp hold the rest. The C shim loads it on
// first use (imaging_library.cpp).
#include "CVisionImaging.h"
#include "OpenCVSupport.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

static_assert(SV_DEPTH_U8 == CV_8U && SV_DEPTH_F32 == CV_32F, "depth codes");
static_assert(int(SV_COLOR_ADD_ALPHA) == int(cv::COLOR_BGR2BGRA) && int(SV_COLOR_DROP_ALPHA) == int(cv::COLOR_BGRA2BGR) &&
              int(SV_COLOR_SWAP_ADD_ALPHA) == int(cv::COLOR_RGB2BGRA) && int(SV_COLOR_SWAP_DROP_ALPHA) == int(cv::COLOR_BGRA2RGB) &&
              int(SV_COLOR_SWAP) == int(cv::COLOR_BGR2RGB) && int(SV_COLOR_SWAP_KEEP_ALPHA) == int(cv::COLOR_BGRA2RGBA) &&
              int(SV_COLOR_BGR_TO_GRAY) == int(cv::COLOR_BGR2GRAY) && int(SV_COLOR_RGB_TO_GRAY) == int(cv::COLOR_RGB2GRAY) &&
              int(SV_COLOR_GRAY_TO_3) == int(cv::COLOR_GRAY2BGR) && int(SV_COLOR_GRAY_TO_4) == int(cv::COLOR_GRAY2BGRA) &&
              int(SV_COLOR_BGRA_TO_GRAY) == int(cv::COLOR_BGRA2GRAY) && int(SV_COLOR_RGBA_TO_GRAY) == int(cv::COLOR_RGBA2GRAY) &&
              int(SV_COLOR_NV12_TO_RGB) == int(cv::COLOR_YUV2RGB_NV12) && int(SV_COLOR_NV12_TO_BGR) == int(cv::COLOR_YUV2BGR_NV12),
              "colour conversion codes");
static_assert(int(SV_INTER_NEAREST) == int(cv::INTER_NEAREST) && int(SV_INTER_LINEAR) == int(cv::INTER_LINEAR) &&
              int(SV_INTER_CUBIC) == int(cv::INTER_CUBIC) && int(SV_INTER_AREA) == int(cv::INTER_AREA), "interpolation codes");
static_assert(int(SV_ROTATE_90_CLOCKWISE) == int(cv::ROTATE_90_CLOCKWISE) && int(SV_ROTATE_180) == int(cv::ROTATE_180) &&
              int(SV_ROTATE_90_COUNTERCLOCKWISE) == int(cv::ROTATE_90_COUNTERCLOCKWISE), "rotation codes");

using namespace shim;

extern "C" {

const char *svi_last_error(void) { return lastError.c_str(); }

int32_t svi_set_thread_count(int32_t count) {
    cv::setNumThreads(count);
    return cv::getNumThreads();
}

namespace {

/// The largest factor of at most `limit` that divides both `width` and `height` (at least 1).
int commonFactor(int width, int height, int limit) {
    for (int factor = limit; factor > 1; --factor) {
        if (width % factor == 0 && height % factor == 0) return factor;
    }
    return 1;
}

}  // namespace

int svi_resize(SVImageView source, SVImageView destination, SVInterpolation interpolation) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::Mat input = asMat(source);
        if (interpolation == SV_INTER_AREA && target.cols > 0 && target.rows > 0) {
            // OpenCV's area resize is fast (vectorised) only for whole-number factors: first shrink by the
            // largest whole factor that divides both sides, so the general, slow pass runs on a small image.
            // When no factor divides both, bring the image bilinearly to the whole multiple of the target
            // below it (a shrink of less than 2, which bilinear sampling follows closely), then average
            // whole blocks: a third of the general pass's time on a 447x418 crop shrunk to 192x180.
            int whole = std::min(input.cols / target.cols, input.rows / target.rows);
            int factor = commonFactor(input.cols, input.rows, whole);
            cv::Mat reduced;
            if (factor > 1 && (input.cols != target.cols * factor || input.rows != target.rows * factor)) {
                cv::resize(input, reduced, cv::Size(input.cols / factor, input.rows / factor), 0, 0, cv::INTER_AREA);
                input = reduced;
            } else if (factor == 1 && whole > 1) {
                cv::resize(input, reduced, cv::Size(target.cols * whole, target.rows * whole), 0, 0, cv::INTER_LINEAR);
                input = reduced;
            }
        }
        cv::resize(input, target, target.size(), 0, 0, interpolation);
        return checkedInPlace(target, destination);
    });
}

int svi_rotate(SVImageView source, SVImageView destination, SVRotation rotation) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::rotate(asMat(source), target, rotation);
        return checkedInPlace(target, destination);
    });
}

int svi_flip(SVImageView source, SVImageView destination, SVFlip flip) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::flip(asMat(source), target, flip);
        return checkedInPlace(target, destination);
    });
}

int svi_convert_color(SVImageView source, SVImageView destination, SVColorConversion conversion) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::cvtColor(asMat(source), target, conversion);
        return checkedInPlace(target, destination);
    });
}

int svi_warp_affine(SVImageView source, SVImageView destination, const double matrix[6],
                   SVInterpolation interpolation, const double border[4]) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        const cv::Mat transform(2, 3, CV_64F, const_cast<double *>(matrix));
        cv::warpAffine(asMat(source), target, transform, target.size(), interpolation | cv::WARP_INVERSE_MAP,
                       border ? cv::BORDER_CONSTANT : cv::BORDER_REPLICATE, border ? scalar(border) : cv::Scalar());
        return checkedInPlace(target, destination);
    });
}

int svi_copy(SVImageView source, SVImageView destination) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        asMat(source).copyTo(target);
        return checkedInPlace(target, destination);
    });
}

int svi_fill(SVImageView destination, const double value[4]) {
    return guarded([&] {
        asMat(destination).setTo(scalar(value));
        return 0;
    });
}

int svi_normalize(SVImageView source, SVImageView destination, const double mean[4], const double std[4]) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        asMat(source).convertTo(target, CV_32F);
        if (checkedInPlace(target, destination) != 0) return -1;
        cv::subtract(target, scalar(mean), target);
        cv::divide(target, scalar(std), target);
        return checkedInPlace(target, destination);
    });
}

int svi_draw_rectangle(SVImageView image, double x, double y, double width, double height, const double color[4],
                      int thickness) {
    return guarded([&] {
        cv::Mat target = asMat(image);
        const int shift = 4;
        const double one = 1 << shift;
        cv::rectangle(target, cv::Point(cvRound(x * one), cvRound(y * one)),
                      cv::Point(cvRound((x + width) * one), cvRound((y + height) * one)), scalar(color), thickness,
                      cv::LINE_AA, shift);
        return 0;
    });
}

int svi_draw_polyline(SVImageView image, const double *xy, int32_t pointCount, int closed, const double color[4],
                     int thickness) {
    return guarded([&] {
        const int shift = 4;
        const double one = 1 << shift;
        std::vector<cv::Point> points(static_cast<size_t>(pointCount));
        for (int32_t index = 0; index < pointCount; ++index) {
            points[index] = cv::Point(cvRound(xy[2 * index] * one), cvRound(xy[2 * index + 1] * one));
        }
        cv::Mat target = asMat(image);
        cv::polylines(target, points, closed != 0, scalar(color), thickness, cv::LINE_AA, shift);
        return 0;
    });
}

int svi_draw_circle(SVImageView image, double x, double y, double radius, const double color[4], int thickness) {
    return guarded([&] {
        const int shift = 4;
        const double one = 1 << shift;
        cv::Mat target = asMat(image);
        cv::circle(target, cv::Point(cvRound(x * one), cvRound(y * one)), cvRound(radius * one), scalar(color),
                   thickness, cv::LINE_AA, shift);
        return 0;
    });
}

int svi_draw_text(SVImageView image, const char *text, double x, double y, double scale, const double color[4],
                 int thickness) {
    return guarded([&] {
        cv::Mat target = asMat(image);
        cv::putText(target, text, cv::Point(cvRound(x), cvRound(y)), cv::FONT_HERSHEY_SIMPLEX, scale, scalar(color),
                    thickness, cv::LINE_AA);
        return 0;
    });
}

int svi_text_size(const char *text, double scale, int thickness, int32_t *width, int32_t *height, int32_t *baseline) {
    return guarded([&] {
        int base = 0;
        const cv::Size size = cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, scale, thickness, &base);
        *width = size.width;
        *height = size.height;
        *baseline = base;
        return 0;
    });
}



int svi_convert_scale(SVImageView source, SVImageView destination, double scale, double offset) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        asMat(source).convertTo(target, target.type(), scale, offset);
        return checkedInPlace(target, destination);
    });
}

int svi_blend_weighted(SVImageView first, SVImageView second, SVImageView weights, SVImageView destination) {
    return guarded([&] {
        const cv::Mat firstWeights = asMat(weights);
        cv::Mat secondWeights;
        cv::subtract(cv::Scalar::all(1.0), firstWeights, secondWeights);
        cv::Mat target = asMat(destination);
        cv::blendLinear(asMat(first), asMat(second), firstWeights, secondWeights, target);
        return checkedInPlace(target, destination);
    });
}

int svi_correlation(SVImageView first, SVImageView second, double *score) {
    return guarded([&] {
        cv::Mat result;
        cv::matchTemplate(asMat(first), asMat(second), result, cv::TM_CCOEFF_NORMED);
        *score = result.at<float>(0, 0);
        return 0;
    });
}

}  // extern "C"
