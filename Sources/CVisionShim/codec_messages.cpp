// The codecs' own messages on standard error. libpng and libjpeg print "libpng error: IDAT: CRC error"
// or "Corrupt JPEG data: …" for a damaged file on top of the error our API returns, and FFmpeg prints
// e.g. "moov atom not found". They stay quiet unless sv_set_codec_messages(1) asks for them (`--verbose`):
// the shim's own decoders (codecs.cpp) print libpng's and libjpeg's messages only then, and FFmpeg's log
// level is set for OpenCV's captures.
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

} // namespace

bool shim::codecMessagesShown() { return codecMessages.load(std::memory_order_relaxed); }

extern "C" int sv_codec_messages_shown(void) { return shim::codecMessagesShown() ? 1 : 0; }

extern "C" void sv_set_codec_messages(int shown) {
    codecMessages.store(shown != 0, std::memory_order_relaxed);
    if (!ffmpegLevelIsUsers) {
        if (shown) unsetenv("OPENCV_FFMPEG_LOGLEVEL");
        else setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 1);
    }
}
