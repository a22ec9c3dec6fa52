// libSwiftVisionMedia.so: OpenCV's image codecs, video input and output, and trackers, behind the
// functions of CVisionMedia.h. The C shim loads it on first use (media_library.cpp).
#include "CVisionMedia.h"
#include "../CVisionImaging/OpenCVSupport.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/tracking.hpp>
#include <opencv2/videoio.hpp>

#include <cstdlib>
#include <iostream>
#include <mutex>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace shim;

// OpenCV's own ceiling on the pixels it decodes (it reads the variable once, at its first decode): a
// backstop just above ImageLimits' default, should a header ever hide an image's real size. A value
// the user set is kept.
[[maybe_unused]] static const bool openCVPixelCeiling = [] { return setenv("OPENCV_IO_MAX_IMAGE_PIXELS", "134217728", 0) == 0; }();

namespace {

/// A stream buffer that drops what is written to it.
class DroppingBuffer : public std::streambuf {
protected:
    int overflow(int character) override { return traits_type::not_eof(character); }
    std::streamsize xsputn(const char *, std::streamsize count) override { return count; }
};

/// OpenCV 4.6's imdecode writes a decoder's exception to std::cerr ("imdecode_(''): can't read header: …")
/// besides returning no image; the caller reports the failure itself. While one of these exists (and
/// `active`), std::cerr drops its output; the last one to end restores it.
class QuietStandardError {
public:
    explicit QuietStandardError(bool active) : active(active) {
        if (!active) return;
        const std::lock_guard<std::mutex> hold(lock);
        if (depth++ == 0) saved = std::cerr.rdbuf(&dropping);
    }
    ~QuietStandardError() {
        if (!active) return;
        const std::lock_guard<std::mutex> hold(lock);
        if (--depth == 0) std::cerr.rdbuf(saved);
    }
    QuietStandardError(const QuietStandardError &) = delete;
    QuietStandardError &operator=(const QuietStandardError &) = delete;

private:
    const bool active;
    static inline std::mutex lock;
    static inline int depth = 0;
    static inline std::streambuf *saved = nullptr;
    static inline DroppingBuffer dropping;
};

}  // namespace

extern "C" {

const char *svm_last_error(void) { return lastError.c_str(); }

int svm_decode(const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height,
               int showMessages) {
    return guarded([&] {
        const cv::Mat encoded(1, static_cast<int>(length), CV_8UC1, const_cast<uint8_t *>(bytes));
        cv::Mat decoded;
        {
            const QuietStandardError quiet(showMessages == 0);
            // A fresh matrix: when a decoder refuses the header, imdecode leaves a given one as it was.
            decoded = cv::imdecode(encoded, cv::IMREAD_COLOR | cv::IMREAD_IGNORE_ORIENTATION);
        }
        if (decoded.empty()) {
            lastError = "the decoder could not read the image data";
            return -1;
        }
        if (decoded.cols != destination.width || decoded.rows != destination.height) {
            *width = decoded.cols;
            *height = decoded.rows;
            return 1;
        }
        cv::Mat target = asMat(destination);
        decoded.copyTo(target);
        return checkedInPlace(target, destination);
    });
}

int svm_encode(SVImageView source, const char *extension, int quality, uint8_t **output, size_t *length) {
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

struct SVVideoReader {
    cv::VideoCapture capture;
    /// Whether each frame takes a half turn after OpenCV's own: OpenCV 4.6 turns a frame whose display
    /// matrix asks for a quarter turn the other way (opencv/opencv#22088: a phone's portrait video comes
    /// out upside down), and a half turn more puts it upright, as FFmpeg and players show it.
    bool turnsHalfAfterRead = false;
};

struct SVVideoWriter {
    cv::VideoWriter writer;
};

SVVideoReader *svm_video_reader_open(const char *path, int32_t openTimeoutMs, int32_t readTimeoutMs) {
    SVVideoReader *reader = nullptr;
    guarded([&] {
        auto opened = std::make_unique<SVVideoReader>();
        // OpenCV's FFmpeg back end stops a blocking open or read through FFmpeg's interrupt callback once
        // these pass (its own defaults: 30 s each).
        const std::vector<int> timeouts{cv::CAP_PROP_OPEN_TIMEOUT_MSEC, openTimeoutMs, cv::CAP_PROP_READ_TIMEOUT_MSEC, readTimeoutMs};
        if (!opened->capture.open(path, cv::CAP_FFMPEG, timeouts)) {
            lastError = "FFmpeg finds no video stream in it";
            return -1;
        }
#if CV_VERSION_MAJOR == 4 && CV_VERSION_MINOR == 6
        opened->turnsHalfAfterRead = opened->capture.get(cv::CAP_PROP_ORIENTATION_AUTO) != 0 &&
            static_cast<int>(opened->capture.get(cv::CAP_PROP_ORIENTATION_META)) % 180 == 90;
#endif
        reader = opened.release();
        return 0;
    });
    return reader;
}

SVVideoReader *svm_video_reader_open_camera(int32_t index) {
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

void svm_video_reader_properties(SVVideoReader *reader, int32_t *width, int32_t *height, double *fps, int64_t *frameCount) {
    *width = static_cast<int32_t>(reader->capture.get(cv::CAP_PROP_FRAME_WIDTH));
    *height = static_cast<int32_t>(reader->capture.get(cv::CAP_PROP_FRAME_HEIGHT));
    *fps = reader->capture.get(cv::CAP_PROP_FPS);
    *frameCount = static_cast<int64_t>(reader->capture.get(cv::CAP_PROP_FRAME_COUNT));
}

int svm_video_reader_read(SVVideoReader *reader, SVImageView destination, double *timestampMs) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        if (!reader->capture.read(target)) return 1;
        *timestampMs = reader->capture.get(cv::CAP_PROP_POS_MSEC);
        if (reader->turnsHalfAfterRead) {
            cv::Mat turned;
            cv::rotate(target, turned, cv::ROTATE_180);
            turned.copyTo(target);
        }
        return checkedInPlace(target, destination);
    });
}

void svm_video_reader_close(SVVideoReader *reader) { delete reader; }

SVVideoWriter *svm_video_writer_open(const char *path, const char *fourcc, double fps, int32_t width, int32_t height) {
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

int svm_video_writer_write(SVVideoWriter *writer, SVImageView frame) {
    return guarded([&] {
        writer->writer.write(asMat(frame));
        return 0;
    });
}

void svm_video_writer_close(SVVideoWriter *writer) { delete writer; }

struct SVObjectTracker {
    cv::Ptr<cv::Tracker> tracker;
};

SVObjectTracker *svm_tracker_create(SVTrackerKind kind, SVImageView image, int32_t x, int32_t y, int32_t width,
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

int svm_tracker_update(SVObjectTracker *tracker, SVImageView image, int32_t *x, int32_t *y, int32_t *width,
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

void svm_tracker_release(SVObjectTracker *tracker) { delete tracker; }

}  // extern "C"
