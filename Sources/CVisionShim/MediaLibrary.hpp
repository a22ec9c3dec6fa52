// libSwiftVisionMedia.so, loaded on first use (media_library.cpp).
#ifndef SWIFTVISION_MEDIALIBRARY_HPP
#define SWIFTVISION_MEDIALIBRARY_HPP

#include "CVisionShim.h"

#include <string>

/// The functions of CVisionMedia.h, resolved in the loaded library.
struct MediaLibrary {
    /// Why the library could not be used; empty once it is loaded.
    std::string failure;
    const char *(*lastError)(void) = nullptr;
    int (*decode)(const uint8_t *, size_t, SVImageView, int32_t *, int32_t *, int) = nullptr;
    int (*encode)(SVImageView, const char *, int, uint8_t **, size_t *) = nullptr;
    SVVideoReader *(*openReader)(const char *) = nullptr;
    SVVideoReader *(*openCamera)(int32_t) = nullptr;
    void (*readerProperties)(SVVideoReader *, int32_t *, int32_t *, double *, int64_t *) = nullptr;
    int (*readFrame)(SVVideoReader *, SVImageView, double *) = nullptr;
    void (*closeReader)(SVVideoReader *) = nullptr;
    SVVideoWriter *(*openWriter)(const char *, const char *, double, int32_t, int32_t) = nullptr;
    int (*writeFrame)(SVVideoWriter *, SVImageView) = nullptr;
    void (*closeWriter)(SVVideoWriter *) = nullptr;
    SVObjectTracker *(*createTracker)(SVTrackerKind, SVImageView, int32_t, int32_t, int32_t, int32_t) = nullptr;
    int (*updateTracker)(SVObjectTracker *, SVImageView, int32_t *, int32_t *, int32_t *, int32_t *) = nullptr;
    void (*releaseTracker)(SVObjectTracker *) = nullptr;

    /// The library, loaded by the first call (thread-safe).
    static const MediaLibrary &shared();

    /// Decodes with OpenCV's imgcodecs (BMP, TIFF and the other formats it reads), as sv_decode.
    static int decodeAny(const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height);
    /// Encodes with OpenCV's imgcodecs, as sv_encode.
    static int encodeAny(SVImageView source, const char *extension, int quality, uint8_t **output, size_t *length);
};

#endif
