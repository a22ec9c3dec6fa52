// GIF through leptonica 1.x (Debian 12: liblept5 1.82, built with giflib), bound with dlopen on the first
// GIF, with our own declarations of the few functions used. OpenCV 4.6 reads no GIF; leptonica is on every
// machine that has Tesseract, which the text task needs. The first image of an animation is read, as
// iOS's image decoders give it for a still.
#include "CodecMessages.hpp"
#include "LibraryLoading.hpp"
#include "LoadedCodecs.hpp"

#include <algorithm>
#include <cstring>

namespace {

// The parts of leptonica's API (allheaders.h, pix.h) used here, declared as its 1.x releases define them.
struct Pix;
/// leptonica's L_SEVERITY_ERROR and L_SEVERITY_NONE (environ.h).
constexpr int32_t severityError = 5;
constexpr int32_t severityNone = 6;

struct LeptonicaLibrary {
    std::string failure;
    Pix *(*readMemGif)(const uint8_t *, size_t);
    Pix *(*convertTo32)(Pix *);
    int32_t (*width)(const Pix *);
    int32_t (*height)(const Pix *);
    int32_t (*wordsPerLine)(const Pix *);
    uint32_t *(*data)(Pix *);
    void (*destroy)(Pix **);
    int32_t (*setMessageSeverity)(int32_t);

    LeptonicaLibrary() {
        void *handle = shim::openSystemLibrary(
            "liblept.so.5", "GIF images need leptonica (Debian's liblept5, which Tesseract uses)", failure);
        if (handle == nullptr) return;
        std::string missing;
        shim::resolve(handle, "pixReadMemGif", readMemGif, missing);
        shim::resolve(handle, "pixConvertTo32", convertTo32, missing);
        shim::resolve(handle, "pixGetWidth", width, missing);
        shim::resolve(handle, "pixGetHeight", height, missing);
        shim::resolve(handle, "pixGetWpl", wordsPerLine, missing);
        shim::resolve(handle, "pixGetData", data, missing);
        shim::resolve(handle, "pixDestroy", destroy, missing);
        shim::resolve(handle, "setMsgSeverity", setMessageSeverity, missing);
        if (!missing.empty()) {
            failure = "liblept.so.5 lacks " + missing + ": it is not leptonica 1.x";
            dlclose(handle);
        }
    }

    static const LeptonicaLibrary &shared() {
        static const LeptonicaLibrary library;
        return library;
    }
};

/// A leptonica image, destroyed when it goes out of scope.
struct OwnedPix {
    const LeptonicaLibrary &library;
    Pix *pix;
    ~OwnedPix() {
        if (pix != nullptr) library.destroy(&pix);
    }
};

}  // namespace

bool shim::isGIF(const uint8_t *bytes, size_t length) {
    return length >= 6 && (std::memcmp(bytes, "GIF87a", 6) == 0 || std::memcmp(bytes, "GIF89a", 6) == 0);
}

int shim::decodeGIF(const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height) {
    const LeptonicaLibrary &library = LeptonicaLibrary::shared();
    if (!library.failure.empty()) {
        lastError = library.failure;
        return -1;
    }
    // leptonica reports bad data on standard error unless told not to, as the other codecs here.
    library.setMessageSeverity(codecMessagesShown() ? severityError : severityNone);
    OwnedPix read{library, library.readMemGif(bytes, length)};
    if (read.pix == nullptr) {
        lastError = "leptonica read no image from it";
        return -1;
    }
    OwnedPix colour{library, library.convertTo32(read.pix)};
    if (colour.pix == nullptr) {
        lastError = "leptonica could not turn the GIF image into RGB";
        return -1;
    }
    const int status = fitDecoded(uint64_t(std::max(library.width(colour.pix), 0)),
                                  uint64_t(std::max(library.height(colour.pix), 0)), destination, width, height);
    if (status != 0) return status;
    const uint32_t *words = library.data(colour.pix);
    const size_t wordsPerLine = size_t(library.wordsPerLine(colour.pix));
    for (int32_t y = 0; y < destination.height; ++y) {
        const uint32_t *from = words + size_t(y) * wordsPerLine;
        uint8_t *to = destination.data + size_t(y) * size_t(destination.bytesPerRow);
        // A 32-bit leptonica pixel holds red in its top byte, then green, blue and a spare byte.
        for (int32_t x = 0; x < destination.width; ++x, to += 3) {
            const uint32_t pixel = from[x];
            to[0] = uint8_t(pixel >> 8);
            to[1] = uint8_t(pixel >> 16);
            to[2] = uint8_t(pixel >> 24);
        }
    }
    return 0;
}
