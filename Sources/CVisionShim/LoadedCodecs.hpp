// Codecs the shim loads on first use, from Debian's libraries, for the formats OpenCV 4.6 does not read:
// HEIF (HEIC, as iPhones write it) and AVIF through libheif (heif.cpp), GIF through leptonica, the library
// Tesseract reads images with (gif.cpp).
#ifndef SWIFTVISION_LOADEDCODECS_HPP
#define SWIFTVISION_LOADEDCODECS_HPP

#include "ShimSupport.hpp"

#include <cstddef>
#include <cstdint>

namespace shim {

/// Decodes the primary image of HEIF or AVIF `bytes` into `destination` (8-bit BGR), with the file's rotation,
/// mirroring and crop applied and any alpha dropped; returns as sv_decode does.
int decodeHEIF(const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height);

/// Whether `bytes` start with a GIF signature (GIF87a or GIF89a).
bool isGIF(const uint8_t *bytes, size_t length);

/// Decodes the first image of GIF `bytes` into `destination` (8-bit BGR); returns as sv_decode does.
int decodeGIF(const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height);

}  // namespace shim

#endif
