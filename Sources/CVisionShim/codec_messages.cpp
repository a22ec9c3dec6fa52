// The codecs' own messages on standard error. OpenCV leaves libpng's and libjpeg's default message
// handlers in place, so a corrupt file prints "libpng error: IDAT: CRC error" or "Corrupt JPEG data: …"
// on top of the error our API returns, and FFmpeg prints e.g. "moov atom not found". They stay quiet
// unless sv_set_codec_messages(1) asks for them (`--verbose`).
#include "CVisionShim.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

extern "C" {
#include <jpeglib.h>
}
#include <png.h>

namespace {

std::atomic<bool> codecMessages{false};

/// A libpng error: as libpng's default handler (which must not return) without the message.
void pngError(png_structp png, png_const_charp message) {
    if (codecMessages.load(std::memory_order_relaxed)) std::fprintf(stderr, "libpng error: %s\n", message);
    png_longjmp(png, 1);
}

void pngWarning(png_structp, png_const_charp message) {
    if (codecMessages.load(std::memory_order_relaxed)) std::fprintf(stderr, "libpng warning: %s\n", message);
}

std::atomic<void (*)(j_common_ptr)> defaultJPEGOutput{nullptr};

/// libjpeg's warnings ("Corrupt JPEG data") and trace messages; OpenCV replaces error_exit itself.
void jpegOutput(j_common_ptr info) {
    auto output = defaultJPEGOutput.load(std::memory_order_relaxed);
    if (codecMessages.load(std::memory_order_relaxed) && output != nullptr) output(info);
}

/// The next definition of `name` after this one: the library's own.
template <typename Function> Function library(const char *name) {
    return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

/// Whether the user set FFmpeg's log level for OpenCV's captures; if so it is kept. A level inherited
/// from a parent process that set it here (and marked it) is not the user's.
const bool ffmpegLevelIsUsers =
    std::getenv("OPENCV_FFMPEG_LOGLEVEL") != nullptr && std::getenv("SWIFTVISION_FFMPEG_LOGLEVEL_SET") == nullptr;
/// Otherwise it is AV_LOG_QUIET (OpenCV reads it when a capture opens).
[[maybe_unused]] const bool ffmpegQuiet = ffmpegLevelIsUsers || (setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 1) == 0 &&
                                                                  setenv("SWIFTVISION_FFMPEG_LOGLEVEL_SET", "1", 1) == 0);

} // namespace

// These two stand in for the libraries' functions of the same names, which OpenCV's decoders call
// (the executable's definitions come first in the dynamic linker's search): each calls the library's
// own and installs the quiet handlers where OpenCV gave none.
extern "C" png_structp png_create_read_struct(png_const_charp version, png_voidp errorPointer, png_error_ptr errorFunction,
                                              png_error_ptr warningFunction) {
    using Create = png_structp (*)(png_const_charp, png_voidp, png_error_ptr, png_error_ptr);
    static const Create create = library<Create>("png_create_read_struct");
    return create(version, errorPointer, errorFunction != nullptr ? errorFunction : pngError,
                  warningFunction != nullptr ? warningFunction : pngWarning);
}

extern "C" struct jpeg_error_mgr *jpeg_std_error(struct jpeg_error_mgr *manager) {
    using StandardError = struct jpeg_error_mgr *(*)(struct jpeg_error_mgr *);
    static const StandardError standardError = library<StandardError>("jpeg_std_error");
    struct jpeg_error_mgr *result = standardError(manager);
    defaultJPEGOutput.store(result->output_message, std::memory_order_relaxed);
    result->output_message = jpegOutput;
    return result;
}

extern "C" void sv_set_codec_messages(int shown) {
    codecMessages.store(shown != 0, std::memory_order_relaxed);
    if (!ffmpegLevelIsUsers) {
        if (shown) unsetenv("OPENCV_FFMPEG_LOGLEVEL");
        else setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 1);
    }
}
