// HEIF (HEIC, as iPhones write it) and AVIF through Debian's libheif, opened on first use (heif.cpp).
#ifndef SWIFTVISION_HEIF_HPP
#define SWIFTVISION_HEIF_HPP

#include "ShimSupport.hpp"

#include <cstddef>
#include <cstdint>

namespace shim {

/// Whether `bytes` start with an ISO base media file type box whose brands name a HEIF or AVIF still image.
bool isHEIF(const uint8_t *bytes, size_t length);

/// Decodes the primary image of HEIF or AVIF `bytes` into `destination` (8-bit BGR), with the file's rotation,
/// mirroring and crop applied and any alpha dropped; returns as sv_decode does.
int decodeHEIF(const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height);

}  // namespace shim

#endif
