// libSwiftVisionMedia.so, loaded on first use (media_library.cpp).
#ifndef SWIFTVISION_MEDIALIBRARY_HPP
#define SWIFTVISION_MEDIALIBRARY_HPP

#include "../CVisionMedia/include/CVisionMedia.h"

#include <string>

/// The functions of CVisionMedia.h, resolved in the loaded library.
struct MediaLibrary {
    /// Why the library could not be used; empty once it is loaded.
    std::string failure;
    const char *(*lastError)(void) = nullptr;
#define SV_MEDIA_MEMBER(result, name, parameters) result(*name) parameters = nullptr;
    SV_MEDIA_FUNCTIONS(SV_MEDIA_MEMBER)
#undef SV_MEDIA_MEMBER

    /// The library, loaded by the first call (thread-safe).
    static const MediaLibrary &shared();

    /// Decodes with OpenCV's imgcodecs (BMP, TIFF and the other formats it reads), as sv_decode.
    static int decodeAny(const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height);
    /// Encodes with OpenCV's imgcodecs, as sv_encode.
    static int encodeAny(SVImageView source, const char *extension, int quality, uint8_t **output, size_t *length);
};

#endif
