// Colour matching of decoded pixels to sRGB through LittleCMS 2 (Debian 12: liblcms2-2, 2.14), bound with
// dlopen on the first image that embeds a profile other than sRGB, with our own declarations of the few
// functions used (a machine with only the runtime package has no lcms2.h). Core Image and Pillow's ImageCms
// match embedded profiles to sRGB the same way; the models expect sRGB. And the zlib inflation that a PNG's
// compressed profile needs.
#include "LibraryLoading.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace {

// LittleCMS's handles, opaque pointers in lcms2.h.
using CmsProfile = void *;
using CmsTransform = void *;

/// The pixel format word of 8-bit BGR, from the bit fields lcms2.h documents for its TYPE_* formats: bytes per
/// sample in bits 0–2, the channel count from bit 3, DOSWAP (channels in reverse order) at bit 10, the colour
/// space from bit 16 (PT_RGB = 4). lcms2.h's TYPE_BGR_8 has this value, 0x40419.
constexpr uint32_t cmsTypeBGR8 = (4u << 16) | (1u << 10) | (3u << 3) | 1u;
/// INTENT_PERCEPTUAL, the default of Pillow's ImageCms.profileToProfile and the ICC's default intent. For
/// matrix-and-curves profiles (Display P3, Adobe RGB) LittleCMS converts colorimetrically whatever the intent;
/// intents differ only for profiles with lookup tables.
constexpr uint32_t cmsIntentPerceptual = 0;
/// cmsFLAGS_NOCACHE: no one-pixel cache in the transform.
constexpr uint32_t cmsFlagsNoCache = 0x0040;
/// cmsSigRgbData, the colour-space signature 'RGB '.
constexpr uint32_t cmsSignatureRGB = 0x52474220;
/// cmsInfoDescription, the profile's description tag ('desc').
constexpr int cmsInfoDescription = 0;

struct LcmsLibrary {
    std::string failure;
    CmsProfile (*openProfileFromMemory)(const void *, uint32_t);
    CmsProfile (*createSRGBProfile)();
    uint32_t (*colorSpace)(CmsProfile);
    uint32_t (*profileInfoASCII)(CmsProfile, int, const char *, const char *, char *, uint32_t);
    CmsTransform (*createTransform)(CmsProfile, uint32_t, CmsProfile, uint32_t, uint32_t, uint32_t);
    void (*doTransform)(CmsTransform, const void *, void *, uint32_t);
    void (*deleteTransform)(CmsTransform);
    int (*closeProfile)(CmsProfile);

    LcmsLibrary() {
        void *handle = shim::openSystemLibrary("liblcms2.so.2", "colour profiles need LittleCMS (Debian's liblcms2-2)", failure);
        if (handle == nullptr) return;
        std::string missing;
        shim::resolve(handle, "cmsOpenProfileFromMem", openProfileFromMemory, missing);
        shim::resolve(handle, "cmsCreate_sRGBProfile", createSRGBProfile, missing);
        shim::resolve(handle, "cmsGetColorSpace", colorSpace, missing);
        shim::resolve(handle, "cmsGetProfileInfoASCII", profileInfoASCII, missing);
        shim::resolve(handle, "cmsCreateTransform", createTransform, missing);
        shim::resolve(handle, "cmsDoTransform", doTransform, missing);
        shim::resolve(handle, "cmsDeleteTransform", deleteTransform, missing);
        shim::resolve(handle, "cmsCloseProfile", closeProfile, missing);
        if (!missing.empty()) {
            failure = "liblcms2.so.2 lacks " + missing;
            dlclose(handle);
        }
    }

    static const LcmsLibrary &shared() {
        static const LcmsLibrary library;
        return library;
    }
};

/// A profile opened by LittleCMS, closed when it goes out of scope.
struct OpenedProfile {
    const LcmsLibrary &library;
    CmsProfile profile;
    OpenedProfile(const LcmsLibrary &library, CmsProfile profile) : library(library), profile(profile) {}
    ~OpenedProfile() {
        if (profile != nullptr) library.closeProfile(profile);
    }
    OpenedProfile(const OpenedProfile &) = delete;
    OpenedProfile &operator=(const OpenedProfile &) = delete;
};

/// Whether the profile describes itself as sRGB ("sRGB IEC61966-2.1", "sRGB built-in", …): such images are
/// left as decoded, which is what matching them would give within rounding.
bool describesSRGB(const LcmsLibrary &library, CmsProfile profile) {
    char description[256] = {};
    library.profileInfoASCII(profile, cmsInfoDescription, "en", "US", description, sizeof description);
    description[sizeof description - 1] = 0;
    return std::strstr(description, "sRGB") != nullptr;
}

}  // namespace

int sv_match_to_srgb(const uint8_t *profile, size_t length, SVImageView image) {
    return shim::guarded([&] {
        if (image.depth != SV_DEPTH_U8 || image.channels != 3 || image.width <= 0 || image.height <= 0) {
            shim::lastError = "colour matching takes 8-bit BGR pixels";
            return -1;
        }
        // An ICC profile's header alone is 128 bytes, and its tag count 4 more.
        if (length < 132 || length > UINT32_MAX) {
            shim::lastError = "the colour profile is too short or too long to be an ICC profile";
            return -1;
        }
        const LcmsLibrary &library = LcmsLibrary::shared();
        if (!library.failure.empty()) {
            shim::lastError = library.failure;
            return -1;
        }
        const OpenedProfile source(library, library.openProfileFromMemory(profile, uint32_t(length)));
        if (source.profile == nullptr) {
            shim::lastError = "LittleCMS cannot read the colour profile";
            return -1;
        }
        if (library.colorSpace(source.profile) != cmsSignatureRGB || describesSRGB(library, source.profile)) return 1;
        const OpenedProfile sRGB(library, library.createSRGBProfile());
        if (sRGB.profile == nullptr) {
            shim::lastError = "LittleCMS cannot make its sRGB profile";
            return -1;
        }
        CmsTransform transform =
            library.createTransform(source.profile, cmsTypeBGR8, sRGB.profile, cmsTypeBGR8, cmsIntentPerceptual, cmsFlagsNoCache);
        if (transform == nullptr) {
            shim::lastError = "LittleCMS cannot match the colour profile to sRGB";
            return -1;
        }
        // In place, row by row: input and output have the same layout.
        for (int32_t row = 0; row < image.height; ++row) {
            uint8_t *pixels = image.data + size_t(row) * size_t(image.bytesPerRow);
            library.doTransform(transform, pixels, pixels, uint32_t(image.width));
        }
        library.deleteTransform(transform);
        return 0;
    });
}

int64_t sv_inflate(const uint8_t *bytes, size_t length, uint8_t *output, size_t capacity) {
    z_stream stream{};
    if (inflateInit(&stream) != Z_OK) return -1;
    stream.next_in = const_cast<Bytef *>(bytes);
    stream.avail_in = uInt(std::min<size_t>(length, UINT32_MAX));
    stream.next_out = output;
    stream.avail_out = uInt(std::min<size_t>(capacity, UINT32_MAX));
    const int status = inflate(&stream, Z_FINISH);
    const int64_t produced = int64_t(stream.total_out);
    inflateEnd(&stream);
    return status == Z_STREAM_END ? produced : -1;
}
