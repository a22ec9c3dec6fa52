// HEIF and AVIF through libheif 1.x (Debian 12: libheif1 1.15, with libde265 for HEVC and dav1d for AV1),
// bound with dlopen on the first such image so that other processes never load it and its codecs, with our
// own declarations of the few functions used. The library applies the file's transforms (irot, imir, clap)
// when decoding, and its handle reports the size after them: that is the upright image, as on iOS.
#include "LibraryLoading.hpp"
#include "LoadedCodecs.hpp"

#include <cstring>

namespace {

// The parts of libheif's C API (heif.h) used here, declared as its 1.x releases define them.
struct HeifContext;
struct HeifImageHandle;
struct HeifImage;
struct HeifError {
    int code;  // heif_error_code: 0 is heif_error_Ok
    int subcode;
    const char *message;
};
/// heif_decoding_options up to its version 2 fields; the library allocates the whole structure.
struct HeifDecodingOptions {
    uint8_t version;
    uint8_t ignoreTransformations;
    void *startProgress;
    void *onProgress;
    void *endProgress;
    void *progressUserData;
    uint8_t convertHDRTo8Bit;  // version 2
};
constexpr int heifColorspaceRGB = 1;
constexpr int heifChromaInterleavedRGB = 10;
constexpr int heifChannelInterleaved = 10;

struct HeifLibrary {
    std::string failure;
    HeifContext *(*contextAlloc)();
    void (*contextFree)(HeifContext *);
    HeifError (*readFromMemory)(HeifContext *, const void *, size_t, const void *);
    void (*setMaxDecodingThreads)(HeifContext *, int);
    HeifError (*primaryImageHandle)(HeifContext *, HeifImageHandle **);
    int (*handleWidth)(const HeifImageHandle *);
    int (*handleHeight)(const HeifImageHandle *);
    void (*handleRelease)(const HeifImageHandle *);
    HeifDecodingOptions *(*optionsAlloc)();
    void (*optionsFree)(HeifDecodingOptions *);
    HeifError (*decodeImage)(const HeifImageHandle *, HeifImage **, int, int, const HeifDecodingOptions *);
    int (*imageWidth)(const HeifImage *, int);
    int (*imageHeight)(const HeifImage *, int);
    const uint8_t *(*planeReadonly)(const HeifImage *, int, int *);
    void (*imageRelease)(const HeifImage *);

    HeifLibrary() {
        void *handle = shim::openSystemLibrary("libheif.so.1", "HEIF and AVIF images need libheif (Debian's libheif1)", failure);
        if (handle == nullptr) return;
        std::string missing;
        shim::resolve(handle, "heif_context_alloc", contextAlloc, missing);
        shim::resolve(handle, "heif_context_free", contextFree, missing);
        shim::resolve(handle, "heif_context_read_from_memory_without_copy", readFromMemory, missing);
        shim::resolve(handle, "heif_context_set_max_decoding_threads", setMaxDecodingThreads, missing);
        shim::resolve(handle, "heif_context_get_primary_image_handle", primaryImageHandle, missing);
        shim::resolve(handle, "heif_image_handle_get_width", handleWidth, missing);
        shim::resolve(handle, "heif_image_handle_get_height", handleHeight, missing);
        shim::resolve(handle, "heif_image_handle_release", handleRelease, missing);
        shim::resolve(handle, "heif_decoding_options_alloc", optionsAlloc, missing);
        shim::resolve(handle, "heif_decoding_options_free", optionsFree, missing);
        shim::resolve(handle, "heif_decode_image", decodeImage, missing);
        shim::resolve(handle, "heif_image_get_width", imageWidth, missing);
        shim::resolve(handle, "heif_image_get_height", imageHeight, missing);
        shim::resolve(handle, "heif_image_get_plane_readonly", planeReadonly, missing);
        shim::resolve(handle, "heif_image_release", imageRelease, missing);
        if (!missing.empty()) {
            failure = "libheif.so.1 lacks " + missing + ": it is older than libheif 1.13";
            dlclose(handle);
        }
    }

    static const HeifLibrary &shared() {
        static const HeifLibrary library;
        return library;
    }
};

/// One file read by libheif, released when it goes out of scope.
class HeifFile {
public:
    explicit HeifFile(const HeifLibrary &library)
        : library(library), context(library.failure.empty() ? library.contextAlloc() : nullptr) {}
    ~HeifFile() {
        if (image != nullptr) library.imageRelease(image);
        if (handle != nullptr) library.handleRelease(handle);
        if (context != nullptr) library.contextFree(context);
    }
    HeifFile(const HeifFile &) = delete;
    HeifFile &operator=(const HeifFile &) = delete;

    /// Reads the file's structure and finds its primary image; false with `shim::lastError` set on failure
    /// (libheif not loaded among them).
    bool open(const uint8_t *bytes, size_t length) {
        if (!library.failure.empty()) return failed(library.failure.c_str());
        if (context == nullptr) return failed("libheif could not make a context");
        // Tiles decode on the calling thread, as every other format here: no threads the caller did not ask for.
        library.setMaxDecodingThreads(context, 0);
        if (!succeeded(library.readFromMemory(context, bytes, length, nullptr), "read it")) return false;
        return succeeded(library.primaryImageHandle(context, &handle), "find its primary image");
    }

    int width() const { return library.handleWidth(handle); }
    int height() const { return library.handleHeight(handle); }

    /// Decodes the primary image to 8-bit interleaved RGB with the file's transforms applied.
    const uint8_t *decode(int &stride, int &decodedWidth, int &decodedHeight) {
        HeifDecodingOptions *options = library.optionsAlloc();
        if (options != nullptr && options->version >= 2) options->convertHDRTo8Bit = 1;
        const HeifError error = library.decodeImage(handle, &image, heifColorspaceRGB, heifChromaInterleavedRGB, options);
        if (options != nullptr) library.optionsFree(options);
        if (!succeeded(error, "decode it")) return nullptr;
        decodedWidth = library.imageWidth(image, heifChannelInterleaved);
        decodedHeight = library.imageHeight(image, heifChannelInterleaved);
        const uint8_t *pixels = library.planeReadonly(image, heifChannelInterleaved, &stride);
        if (pixels == nullptr) failed("libheif gave no interleaved RGB plane");
        return pixels;
    }

private:
    const HeifLibrary &library;
    HeifContext *context = nullptr;
    HeifImageHandle *handle = nullptr;
    HeifImage *image = nullptr;

    static bool failed(const char *message) {
        shim::lastError = message;
        return false;
    }

    static bool succeeded(const HeifError &error, const char *action) {
        if (error.code == 0) return true;
        std::string reason = error.message != nullptr && *error.message != 0 ? error.message : "it gave no reason";
        while (!reason.empty() && (reason.back() == '\n' || reason.back() == ' ')) reason.pop_back();
        shim::lastError = std::string("libheif could not ") + action + ": " + reason;
        return false;
    }
};

/// Whether the four bytes at `brand` are one of `brands`.
template <size_t Count> bool isBrand(const uint8_t *brand, const char *const (&brands)[Count]) {
    for (const char *known : brands) {
        if (std::memcmp(brand, known, 4) == 0) return true;
    }
    return false;
}

}  // namespace

extern "C" int sv_heif_kind(const uint8_t *bytes, size_t length) {
    if (length < 16 || std::memcmp(bytes + 4, "ftyp", 4) != 0) return SV_HEIF_NONE;
    const uint32_t boxSize = uint32_t(bytes[0]) << 24 | uint32_t(bytes[1]) << 16 | uint32_t(bytes[2]) << 8 | bytes[3];
    if (boxSize < 16 || boxSize > length) return SV_HEIF_NONE;
    // The brands of ISO/IEC 23008-12 (HEVC images and sequences) and of the AV1 image format.
    static const char *const hevc[] = {"heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"};
    static const char *const av1[] = {"avif", "avis"};
    static const char *const structural[] = {"mif1", "msf1"};
    // The major brand, then the compatible brands after the minor version.
    bool anyAV1 = false, anyStructural = false;
    for (size_t offset = 8; offset + 4 <= boxSize; offset += offset == 8 ? 8 : 4) {
        if (isBrand(bytes + offset, hevc)) return SV_HEIF_HEVC;
        anyAV1 = anyAV1 || isBrand(bytes + offset, av1);
        anyStructural = anyStructural || isBrand(bytes + offset, structural);
    }
    return anyAV1 ? SV_HEIF_AV1 : anyStructural ? SV_HEIF_HEVC : SV_HEIF_NONE;
}

int shim::decodeHEIF(const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height) {
    HeifFile file(HeifLibrary::shared());
    if (!file.open(bytes, length)) return -1;
    if (file.width() <= 0 || file.height() <= 0) {
        lastError = "the HEIF primary image has no size";
        return -1;
    }
    const int status = fitDecoded(uint64_t(file.width()), uint64_t(file.height()), destination, width, height);
    if (status != 0) return status;
    int stride = 0, decodedWidth = 0, decodedHeight = 0;
    const uint8_t *pixels = file.decode(stride, decodedWidth, decodedHeight);
    if (pixels == nullptr) return -1;
    if (decodedWidth != destination.width || decodedHeight != destination.height) {
        lastError = "libheif decoded " + std::to_string(decodedWidth) + "×" + std::to_string(decodedHeight) +
                    " pixels where the file gives " + std::to_string(destination.width) + "×" +
                    std::to_string(destination.height);
        return -1;
    }
    for (int32_t y = 0; y < destination.height; ++y) {
        const uint8_t *from = pixels + size_t(y) * size_t(stride);
        uint8_t *to = destination.data + size_t(y) * size_t(destination.bytesPerRow);
        for (int32_t x = 0; x < destination.width; ++x, from += 3, to += 3) {
            to[0] = from[2];
            to[1] = from[1];
            to[2] = from[0];
        }
    }
    return 0;
}

extern "C" int sv_heif_size(const uint8_t *bytes, size_t length, int32_t *width, int32_t *height) {
    return shim::guarded([&] {
        HeifFile file(HeifLibrary::shared());
        if (!file.open(bytes, length)) return -1;
        *width = file.width();
        *height = file.height();
        return 0;
    });
}
