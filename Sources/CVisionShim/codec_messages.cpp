// The codecs' own messages on standard error. libpng and libjpeg print "libpng error: IDAT: CRC error"
// or "Corrupt JPEG data: …" for a damaged file on top of the error our API returns, and FFmpeg prints
// e.g. "moov atom not found". They stay quiet unless sv_set_codec_messages(1) asks for them (`--verbose`):
// the shim's own decoders (codecs.cpp) print libpng's and libjpeg's messages only then, FFmpeg's log
// level is set for OpenCV's captures, and so is OpenCV's own (its videoio warns "[ WARN:0@0.01] global
// …/cap_v4l.cpp (902) open VIDEOIO(V4L2:/dev/video0): can't open camera by index" besides the error we
// report for a missing camera).
#include "CodecMessages.hpp"

#include <atomic>
#include <cstdlib>

namespace {

std::atomic<bool> codecMessages{false};

/// Whether the user set FFmpeg's log level for OpenCV's captures; if so it is kept. A level inherited
/// from a parent process that set it here (and marked it) is not the user's.
const bool ffmpegLevelIsUsers =
    std::getenv("OPENCV_FFMPEG_LOGLEVEL") != nullptr && std::getenv("SWIFTVISION_FFMPEG_LOGLEVEL_SET") == nullptr;
/// Otherwise it is AV_LOG_QUIET (OpenCV reads it when a capture opens).
[[maybe_unused]] const bool ffmpegQuiet = ffmpegLevelIsUsers || (setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 1) == 0 &&
                                                                  setenv("SWIFTVISION_FFMPEG_LOGLEVEL_SET", "1", 1) == 0);

/// The same for OpenCV's own log (OPENCV_LOG_LEVEL, read when libopencv_core is loaded, which the imaging
/// library does on first use, after the options are parsed); quiet is its SILENT.
const bool openCVLevelIsUsers =
    std::getenv("OPENCV_LOG_LEVEL") != nullptr && std::getenv("SWIFTVISION_OPENCV_LOGLEVEL_SET") == nullptr;
[[maybe_unused]] const bool openCVQuiet = openCVLevelIsUsers || (setenv("OPENCV_LOG_LEVEL", "SILENT", 1) == 0 &&
                                                                  setenv("SWIFTVISION_OPENCV_LOGLEVEL_SET", "1", 1) == 0);

} // namespace

bool shim::codecMessagesShown() { return codecMessages.load(std::memory_order_relaxed); }

extern "C" int sv_codec_messages_shown(void) { return shim::codecMessagesShown() ? 1 : 0; }

extern "C" void sv_set_codec_messages(int shown) {
    codecMessages.store(shown != 0, std::memory_order_relaxed);
    if (!ffmpegLevelIsUsers) {
        if (shown) unsetenv("OPENCV_FFMPEG_LOGLEVEL");
        else setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 1);
    }
    if (!openCVLevelIsUsers) {
        if (shown) unsetenv("OPENCV_LOG_LEVEL");
        else setenv("OPENCV_LOG_LEVEL", "SILENT", 1);
    }
}
