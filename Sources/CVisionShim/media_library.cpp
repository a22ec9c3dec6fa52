// The sv_ functions for video files, cameras, trackers and the image formats other than JPEG, PNG
// and WebP, forwarded to libSwiftVisionMedia.so (Sources/CVisionMedia). That library links OpenCV's
// imgcodecs, videoio and tracking modules, which pull in GDAL, FFmpeg and GStreamer: several hundred
// shared libraries. It is loaded with dlopen on first use, so a process that reads only photos in those
// three formats never maps them.
//
// Where it is looked for, in order: $SWIFTVISION_MEDIA_LIBRARY; the folder of the executable or library
// this shim is linked into (SwiftPM puts the product next to the executables it builds); the dynamic
// linker's search path.
#include "CodecMessages.hpp"
#include "MediaLibrary.hpp"
#include "ShimSupport.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <string>

using namespace shim;

namespace {

constexpr const char *libraryName = "libSwiftVisionMedia.so";

/// The folder of the file the shim's code was loaded from, with a trailing slash, or "".
std::string shimFolder() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&sv_last_error), &info) == 0 || info.dli_fname == nullptr) return "";
    const std::string path = info.dli_fname;
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

/// Looks `name` up in `handle`; a name not found is added to `missing`.
template <typename Function> void resolve(void *handle, const char *name, Function &function, std::string &missing) {
    function = reinterpret_cast<Function>(dlsym(handle, name));
    if (function == nullptr) missing += missing.empty() ? name : std::string(", ") + name;
}

MediaLibrary load() {
    MediaLibrary library;
    std::string attempts;
    void *handle = nullptr;
    std::string candidates[3];
    if (const char *chosen = std::getenv("SWIFTVISION_MEDIA_LIBRARY"); chosen != nullptr && *chosen != 0) {
        candidates[0] = chosen;
    } else {
        const std::string folder = shimFolder();
        if (!folder.empty()) candidates[1] = folder + libraryName;
        candidates[2] = libraryName;
    }
    for (const std::string &candidate : candidates) {
        if (candidate.empty()) continue;
        handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle != nullptr) break;
        const char *reason = dlerror();
        attempts += "\n  " + (reason != nullptr ? std::string(reason) : candidate);
    }
    if (handle == nullptr) {
        library.failure = std::string("video, camera and tracking support (") + libraryName +
                          ", the package's SwiftVisionMedia product) could not be loaded; build it next to the "
                          "executable or set SWIFTVISION_MEDIA_LIBRARY to its path:" + attempts;
        return library;
    }
    std::string missing;
    resolve(handle, "svm_last_error", library.lastError, missing);
    resolve(handle, "svm_decode", library.decode, missing);
    resolve(handle, "svm_encode", library.encode, missing);
    resolve(handle, "svm_video_reader_open", library.openReader, missing);
    resolve(handle, "svm_video_reader_open_camera", library.openCamera, missing);
    resolve(handle, "svm_video_reader_properties", library.readerProperties, missing);
    resolve(handle, "svm_video_reader_read", library.readFrame, missing);
    resolve(handle, "svm_video_reader_close", library.closeReader, missing);
    resolve(handle, "svm_video_writer_open", library.openWriter, missing);
    resolve(handle, "svm_video_writer_write", library.writeFrame, missing);
    resolve(handle, "svm_video_writer_close", library.closeWriter, missing);
    resolve(handle, "svm_tracker_create", library.createTracker, missing);
    resolve(handle, "svm_tracker_update", library.updateTracker, missing);
    resolve(handle, "svm_tracker_release", library.releaseTracker, missing);
    if (!missing.empty()) {
        library.failure = std::string(libraryName) + " lacks " + missing + ": it is from another version of SwiftVision";
        dlclose(handle);
    }
    return library;
}

/// Calls `body` with the loaded library, or fails with the reason it could not be loaded; a failure
/// inside the library is passed on with its message.
template <typename Result, typename Body> Result withLibrary(Result failed, Body body) {
    const MediaLibrary &library = MediaLibrary::shared();
    if (!library.failure.empty()) {
        lastError = library.failure;
        return failed;
    }
    const Result result = body(library);
    if (result == failed) lastError = library.lastError();
    return result;
}

}  // namespace

const MediaLibrary &MediaLibrary::shared() {
    static const MediaLibrary library = load();
    return library;
}

int MediaLibrary::decodeAny(const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height) {
    return withLibrary(-1, [&](const MediaLibrary &library) {
        return library.decode(bytes, length, destination, width, height, codecMessagesShown() ? 1 : 0);
    });
}

int MediaLibrary::encodeAny(SVImageView source, const char *extension, int quality, uint8_t **output, size_t *length) {
    return withLibrary(-1, [&](const MediaLibrary &library) { return library.encode(source, extension, quality, output, length); });
}

extern "C" {

SVVideoReader *sv_video_reader_open(const char *path) {
    return withLibrary<SVVideoReader *>(nullptr, [&](const MediaLibrary &library) { return library.openReader(path); });
}

SVVideoReader *sv_video_reader_open_camera(int32_t index) {
    return withLibrary<SVVideoReader *>(nullptr, [&](const MediaLibrary &library) { return library.openCamera(index); });
}

void sv_video_reader_properties(SVVideoReader *reader, int32_t *width, int32_t *height, double *fps, int64_t *frameCount) {
    MediaLibrary::shared().readerProperties(reader, width, height, fps, frameCount);
}

int sv_video_reader_read(SVVideoReader *reader, SVImageView destination, double *timestampMs) {
    return withLibrary(-1, [&](const MediaLibrary &library) { return library.readFrame(reader, destination, timestampMs); });
}

void sv_video_reader_close(SVVideoReader *reader) { MediaLibrary::shared().closeReader(reader); }

SVVideoWriter *sv_video_writer_open(const char *path, const char *fourcc, double fps, int32_t width, int32_t height) {
    return withLibrary<SVVideoWriter *>(
        nullptr, [&](const MediaLibrary &library) { return library.openWriter(path, fourcc, fps, width, height); });
}

int sv_video_writer_write(SVVideoWriter *writer, SVImageView frame) {
    return withLibrary(-1, [&](const MediaLibrary &library) { return library.writeFrame(writer, frame); });
}

void sv_video_writer_close(SVVideoWriter *writer) { MediaLibrary::shared().closeWriter(writer); }

SVObjectTracker *sv_tracker_create(SVTrackerKind kind, SVImageView image, int32_t x, int32_t y, int32_t width,
                                   int32_t height) {
    return withLibrary<SVObjectTracker *>(
        nullptr, [&](const MediaLibrary &library) { return library.createTracker(kind, image, x, y, width, height); });
}

int sv_tracker_update(SVObjectTracker *tracker, SVImageView image, int32_t *x, int32_t *y, int32_t *width,
                      int32_t *height) {
    return withLibrary(-1, [&](const MediaLibrary &library) { return library.updateTracker(tracker, image, x, y, width, height); });
}

void sv_tracker_release(SVObjectTracker *tracker) { MediaLibrary::shared().releaseTracker(tracker); }

}  // extern "C"
