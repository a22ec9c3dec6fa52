#include "CVisionShim.h"
#include "ShimSupport.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/tracking.hpp>
#include <opencv2/videoio.hpp>

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

// OpenCV's own ceiling on the pixels it decodes (it reads the variable once, at its first decode): a
// backstop just above ImageLimits' default, should a header ever hide an image's real size. A value
// the user set is kept.
[[maybe_unused]] static const bool openCVPixelCeiling = [] { return setenv("OPENCV_IO_MAX_IMAGE_PIXELS", "134217728", 0) == 0; }();

extern "C" {

const char *sv_last_error(void) { return lastError.c_str(); }

int32_t sv_set_thread_count(int32_t count) {
    cv::setNumThreads(count);
    return cv::getNumThreads();
}

int sv_decode(const uint8_t *bytes, size_t length, int reduction, int grayscale, SVImageView destination,
              int32_t *width, int32_t *height) {
    return guarded([&] {
        int flags = (grayscale ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR) | cv::IMREAD_IGNORE_ORIENTATION;
        switch (reduction) {
        case 1: break;
        case 2: flags |= grayscale ? cv::IMREAD_REDUCED_GRAYSCALE_2 : cv::IMREAD_REDUCED_COLOR_2; break;
        case 4: flags |= grayscale ? cv::IMREAD_REDUCED_GRAYSCALE_4 : cv::IMREAD_REDUCED_COLOR_4; break;
        case 8: flags |= grayscale ? cv::IMREAD_REDUCED_GRAYSCALE_8 : cv::IMREAD_REDUCED_COLOR_8; break;
        default: lastError = "reduction must be 1, 2, 4 or 8"; return -1;
        }
        const cv::Mat encoded(1, static_cast<int>(length), CV_8UC1, const_cast<uint8_t *>(bytes));
        cv::Mat target = asMat(destination);
        cv::imdecode(encoded, flags, &target);
        if (target.empty()) {
            lastError = "the decoder could not read the image data";
            return -1;
        }
        if (target.data != destination.data) {
            *width = target.cols;
            *height = target.rows;
            return 1;
        }
        return 0;
    });
}

int sv_encode(SVImageView source, const char *extension, int quality, uint8_t **output, size_t *length) {
    return guarded([&] {
        std::vector<uchar> buffer;
        std::vector<int> parameters;
        if (std::strcmp(extension, ".jpg") == 0) {
            parameters = {cv::IMWRITE_JPEG_QUALITY, quality};
        }
        if (!cv::imencode(extension, asMat(source), buffer, parameters)) {
            lastError = "the encoder refused the image";
            return -1;
        }
        *output = static_cast<uint8_t *>(std::malloc(buffer.size()));
        if (*output == nullptr) {
            lastError = "out of memory";
            return -1;
        }
        std::memcpy(*output, buffer.data(), buffer.size());
        *length = buffer.size();
        return 0;
    });
}

void sv_free(void *pointer) { std::free(pointer); }

namespace {

/// The largest factor of at most `limit` that divides both `width` and `height` (at least 1).
int commonFactor(int width, int height, int limit) {
    for (int factor = limit; factor > 1; --factor) {
        if (width % factor == 0 && height % factor == 0) return factor;
    }
    return 1;
}

}  // namespace

int sv_resize(SVImageView source, SVImageView destination, SVInterpolation interpolation) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::Mat input = asMat(source);
        if (interpolation == SV_INTER_AREA && target.cols > 0 && target.rows > 0) {
            // OpenCV's area resize is fast (vectorised) only for whole-number factors: first shrink by the
            // largest whole factor that divides both sides, so the general, slow pass runs on a small image.
            int factor = commonFactor(input.cols, input.rows, std::min(input.cols / target.cols, input.rows / target.rows));
            if (factor > 1 && (input.cols != target.cols * factor || input.rows != target.rows * factor)) {
                cv::Mat reduced;
                cv::resize(input, reduced, cv::Size(input.cols / factor, input.rows / factor), 0, 0, cv::INTER_AREA);
                input = reduced;
            }
        }
        cv::resize(input, target, target.size(), 0, 0, interpolation);
        return checkedInPlace(target, destination);
    });
}

int sv_rotate(SVImageView source, SVImageView destination, SVRotation rotation) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::rotate(asMat(source), target, rotation);
        return checkedInPlace(target, destination);
    });
}

int sv_flip(SVImageView source, SVImageView destination, SVFlip flip) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::flip(asMat(source), target, flip);
        return checkedInPlace(target, destination);
    });
}

int sv_convert_color(SVImageView source, SVImageView destination, SVColorConversion conversion) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::cvtColor(asMat(source), target, conversion);
        return checkedInPlace(target, destination);
    });
}

int sv_warp_affine(SVImageView source, SVImageView destination, const double matrix[6],
                   SVInterpolation interpolation, const double border[4]) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        const cv::Mat transform(2, 3, CV_64F, const_cast<double *>(matrix));
        cv::warpAffine(asMat(source), target, transform, target.size(), interpolation | cv::WARP_INVERSE_MAP,
                       border ? cv::BORDER_CONSTANT : cv::BORDER_REPLICATE, border ? scalar(border) : cv::Scalar());
        return checkedInPlace(target, destination);
    });
}

int sv_copy(SVImageView source, SVImageView destination) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        asMat(source).copyTo(target);
        return checkedInPlace(target, destination);
    });
}

int sv_fill(SVImageView destination, const double value[4]) {
    return guarded([&] {
        asMat(destination).setTo(scalar(value));
        return 0;
    });
}

int sv_normalize(SVImageView source, SVImageView destination, const double mean[4], const double std[4]) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        asMat(source).convertTo(target, CV_32F);
        if (checkedInPlace(target, destination) != 0) return -1;
        cv::subtract(target, scalar(mean), target);
        cv::divide(target, scalar(std), target);
        return checkedInPlace(target, destination);
    });
}

int sv_draw_rectangle(SVImageView image, double x, double y, double width, double height, const double color[4],
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

int sv_draw_polyline(SVImageView image, const double *xy, int32_t pointCount, int closed, const double color[4],
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

int sv_draw_circle(SVImageView image, double x, double y, double radius, const double color[4], int thickness) {
    return guarded([&] {
        const int shift = 4;
        const double one = 1 << shift;
        cv::Mat target = asMat(image);
        cv::circle(target, cv::Point(cvRound(x * one), cvRound(y * one)), cvRound(radius * one), scalar(color),
                   thickness, cv::LINE_AA, shift);
        return 0;
    });
}

int sv_draw_text(SVImageView image, const char *text, double x, double y, double scale, const double color[4],
                 int thickness) {
    return guarded([&] {
        cv::Mat target = asMat(image);
        cv::putText(target, text, cv::Point(cvRound(x), cvRound(y)), cv::FONT_HERSHEY_SIMPLEX, scale, scalar(color),
                    thickness, cv::LINE_AA);
        return 0;
    });
}

int sv_text_size(const char *text, double scale, int thickness, int32_t *width, int32_t *height, int32_t *baseline) {
    return guarded([&] {
        int base = 0;
        const cv::Size size = cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, scale, thickness, &base);
        *width = size.width;
        *height = size.height;
        *baseline = base;
        return 0;
    });
}

struct SVVideoReader {
    cv::VideoCapture capture;
};

struct SVVideoWriter {
    cv::VideoWriter writer;
};

SVVideoReader *sv_video_reader_open(const char *path) {
    SVVideoReader *reader = nullptr;
    guarded([&] {
        auto opened = std::make_unique<SVVideoReader>();
        if (!opened->capture.open(path, cv::CAP_FFMPEG)) {
            lastError = std::string("cannot open the video ") + path;
            return -1;
        }
        reader = opened.release();
        return 0;
    });
    return reader;
}

SVVideoReader *sv_video_reader_open_camera(int32_t index) {
    SVVideoReader *reader = nullptr;
    guarded([&] {
        auto opened = std::make_unique<SVVideoReader>();
        if (!opened->capture.open(index, cv::CAP_V4L2)) {
            lastError = "cannot open camera " + std::to_string(index) + " (/dev/video" + std::to_string(index) + ")";
            return -1;
        }
        reader = opened.release();
        return 0;
    });
    return reader;
}

void sv_video_reader_properties(SVVideoReader *reader, int32_t *width, int32_t *height, double *fps, int64_t *frameCount) {
    *width = static_cast<int32_t>(reader->capture.get(cv::CAP_PROP_FRAME_WIDTH));
    *height = static_cast<int32_t>(reader->capture.get(cv::CAP_PROP_FRAME_HEIGHT));
    *fps = reader->capture.get(cv::CAP_PROP_FPS);
    *frameCount = static_cast<int64_t>(reader->capture.get(cv::CAP_PROP_FRAME_COUNT));
}

int sv_video_reader_read(SVVideoReader *reader, SVImageView destination, double *timestampMs) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        if (!reader->capture.read(target)) return 1;
        *timestampMs = reader->capture.get(cv::CAP_PROP_POS_MSEC);
        return checkedInPlace(target, destination);
    });
}

void sv_video_reader_close(SVVideoReader *reader) { delete reader; }

SVVideoWriter *sv_video_writer_open(const char *path, const char *fourcc, double fps, int32_t width, int32_t height) {
    SVVideoWriter *writer = nullptr;
    guarded([&] {
        auto opened = std::make_unique<SVVideoWriter>();
        const int code = cv::VideoWriter::fourcc(fourcc[0], fourcc[1], fourcc[2], fourcc[3]);
        if (!opened->writer.open(path, cv::CAP_FFMPEG, code, fps, cv::Size(width, height))) {
            lastError = std::string("cannot create the video ") + path;
            return -1;
        }
        writer = opened.release();
        return 0;
    });
    return writer;
}

int sv_video_writer_write(SVVideoWriter *writer, SVImageView frame) {
    return guarded([&] {
        writer->writer.write(asMat(frame));
        return 0;
    });
}

void sv_video_writer_close(SVVideoWriter *writer) { delete writer; }

struct SVObjectTracker {
    cv::Ptr<cv::Tracker> tracker;
};

SVObjectTracker *sv_tracker_create(SVTrackerKind kind, SVImageView image, int32_t x, int32_t y, int32_t width,
                                   int32_t height) {
    SVObjectTracker *result = nullptr;
    guarded([&] {
        auto created = std::make_unique<SVObjectTracker>();
        if (kind == SV_TRACKER_CSRT) {
            created->tracker = cv::TrackerCSRT::create();
        } else {
            created->tracker = cv::TrackerKCF::create();
        }
        created->tracker->init(asMat(image), cv::Rect(x, y, width, height));
        result = created.release();
        return 0;
    });
    return result;
}

int sv_tracker_update(SVObjectTracker *tracker, SVImageView image, int32_t *x, int32_t *y, int32_t *width,
                      int32_t *height) {
    return guarded([&] {
        cv::Rect box;
        if (!tracker->tracker->update(asMat(image), box)) return 0;
        *x = box.x;
        *y = box.y;
        *width = box.width;
        *height = box.height;
        return 1;
    });
}

void sv_tracker_release(SVObjectTracker *tracker) { delete tracker; }

int sv_convert_scale(SVImageView source, SVImageView destination, double scale, double offset) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        asMat(source).convertTo(target, target.type(), scale, offset);
        return checkedInPlace(target, destination);
    });
}

int sv_blend_weighted(SVImageView first, SVImageView second, SVImageView weights, SVImageView destination) {
    return guarded([&] {
        const cv::Mat firstWeights = asMat(weights);
        cv::Mat secondWeights;
        cv::subtract(cv::Scalar::all(1.0), firstWeights, secondWeights);
        cv::Mat target = asMat(destination);
        cv::blendLinear(asMat(first), asMat(second), firstWeights, secondWeights, target);
        return checkedInPlace(target, destination);
    });
}

int sv_correlation(SVImageView first, SVImageView second, double *score) {
    return guarded([&] {
        cv::Mat result;
        cv::matchTemplate(asMat(first), asMat(second), result, cv::TM_CCOEFF_NORMED);
        *score = result.at<float>(0, 0);
        return 0;
    });
}

}  // extern "C"
