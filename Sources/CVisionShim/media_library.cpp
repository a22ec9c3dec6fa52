// The sv_ functions for video files, cameras, trackers and the image formats other than JPEG, PNG
// and WebP, forwarded to libSwiftVisionMedia.so (Sources/CVisionMedia). That library links OpenCV's
// imgcodecs, videoio and tracking modules, which pull in GDAL, FFmpeg and GStreamer: several hundred
// shared libraries. It is loaded with dlopen on first use, so a process that reads only photos in those
// three formats never maps them.
//
// Where it is looked for, in order (LibraryLoading.hpp): $SWIFTVISION_MEDIA_LIBRARY; the folder of the
// executable or library this shim is linked into; the dynamic linker's search path.
#include "CodecMessages.hpp"
#include "LibraryLoading.hpp"
#include "MediaLibrary.hpp"

#include <string>

using namespace shim;

namespace {

constexpr const char *libraryName = "libSwiftVisionMedia.so";

MediaLibrary load() {
    MediaLibrary library;
    void *handle = openLibrary(libraryName, "SWIFTVISION_MEDIA_LIBRARY", "SwiftVisionMedia",
                               "video, camera and tracking support", library.failure);
    if (handle == nullptr) return library;
    std::string missing;
    resolve(handle, "svm_last_error", library.lastError, missing);
#define SV_MEDIA_RESOLVE(result, name, parameters) resolve(handle, "svm_" #name, library.name, missing);
    SV_MEDIA_FUNCTIONS(SV_MEDIA_RESOLVE)
#undef SV_MEDIA_RESOLVE
    checkLibrary(handle, libraryName, "svm_interface", SV_MEDIA_FUNCTIONS(SV_MEDIA_INTERFACE_ENTRY), missing,
                 library.failure);
    return library;
}

/// Calls `body` with the loaded library, or fails with the reason it could not be loaded.
template <typename Result, typename Body> Result withMedia(Result failed, Body body) {
    return shim::withLibrary(MediaLibrary::shared(), failed, body);
}

}  // namespace

const MediaLibrary &MediaLibrary::shared() {
    static const MediaLibrary library = load();
    return library;
}

int MediaLibrary::decodeAny(const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height) {
    return withMedia(-1, [&](const MediaLibrary &library) {
        return library.decode(bytes, length, destination, width, height, codecMessagesShown() ? 1 : 0);
    });
}

int MediaLibrary::encodeAny(SVImageView source, const char *extension, int quality, uint8_t **output, size_t *length) {
    return withMedia(-1, [&](const MediaLibrary &library) { return library.encode(source, extension, quality, output, length); });
}

extern "C" {

SVVideoReader *sv_video_reader_open(const char *path, int32_t openTimeoutMs, int32_t readTimeoutMs) {
    return withMedia<SVVideoReader *>(
        nullptr, [&](const MediaLibrary &library) { return library.video_reader_open(path, openTimeoutMs, readTimeoutMs); });
}

SVVideoReader *sv_video_reader_open_camera(int32_t index) {
    return withMedia<SVVideoReader *>(nullptr, [&](const MediaLibrary &library) { return library.video_reader_open_camera(index); });
}

void sv_video_reader_properties(SVVideoReader *reader, int32_t *width, int32_t *height, double *fps, int64_t *frameCount) {
    MediaLibrary::shared().video_reader_properties(reader, width, height, fps, frameCount);
}

int sv_video_reader_read(SVVideoReader *reader, SVImageView destination, double *timestampMs) {
    return withMedia(-1, [&](const MediaLibrary &library) { return library.video_reader_read(reader, destination, timestampMs); });
}

void sv_video_reader_close(SVVideoReader *reader) { MediaLibrary::shared().video_reader_close(reader); }

SVVideoWriter *sv_video_writer_open(const char *path, const char *fourcc, double fps, int32_t width, int32_t height) {
    return withMedia<SVVideoWriter *>(
        nullptr, [&](const MediaLibrary &library) { return library.video_writer_open(path, fourcc, fps, width, height); });
}

int sv_video_writer_write(SVVideoWriter *writer, SVImageView frame) {
    return withMedia(-1, [&](const MediaLibrary &library) { return library.video_writer_write(writer, frame); });
}

void sv_video_writer_close(SVVideoWriter *writer) { MediaLibrary::shared().video_writer_close(writer); }

SVObjectTracker *sv_tracker_create(SVTrackerKind kind, SVImageView image, int32_t x, int32_t y, int32_t width,
                                   int32_t height) {
    return withMedia<SVObjectTracker *>(
        nullptr, [&](const MediaLibrary &library) { return library.tracker_create(kind, image, x, y, width, height); });
}

int sv_tracker_update(SVObjectTracker *tracker, SVImageView image, int32_t *x, int32_t *y, int32_t *width,
                      int32_t *height) {
    return withMedia(-1, [&](const MediaLibrary &library) { return library.tracker_update(tracker, image, x, y, width, height); });
}

void sv_tracker_release(SVObjectTracker *tracker) { MediaLibrary::shared().tracker_release(tracker); }

}  // extern "C"
