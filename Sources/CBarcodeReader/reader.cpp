// libSwiftVisionBarcodes.so: Debian's zxing-cpp 1.4 behind the functions of CBarcodeShim.h, loaded by
// DebianZXingLibrary.swift on first use.
#define ZX_USE_UTF8 1

#include "CBarcodeReader.h"

#include <ReadBarcode.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <type_traits>

namespace {

thread_local std::string lastError;

char *copy(const std::string &text) {
    char *result = static_cast<char *>(std::malloc(text.size() + 1));
    if (result != nullptr) std::memcpy(result, text.c_str(), text.size() + 1);
    return result;
}

}  // namespace

extern "C" {

const char *svb_last_error(void) { return lastError.c_str(); }

int svb_read_barcodes(const uint8_t *pixels, int32_t width, int32_t height, int32_t bytesPerRow, SVBarcodeHints hints,
                      SVBarcode **results, int32_t *count) {
    try {
        const ZXing::ImageView image(pixels, width, height, ZXing::ImageFormat::Lum, bytesPerRow);
        ZXing::DecodeHints options;
        options.setFormats(ZXing::BarcodeFormats(static_cast<ZXing::BarcodeFormat>(hints.formats)))
            .setTryHarder(hints.tryHarder != 0)
            .setTryRotate(hints.tryRotate != 0)
            .setTryDownscale(hints.tryDownscale != 0)
            .setMaxNumberOfSymbols(hints.maximumCount > 0 && hints.maximumCount < 255 ? hints.maximumCount : 255);
        const ZXing::Results found = ZXing::ReadBarcodes(image, options);
        *count = static_cast<int32_t>(found.size());
        *results = static_cast<SVBarcode *>(std::calloc(found.size() + 1, sizeof(SVBarcode)));
        if (*results == nullptr) throw std::bad_alloc();
        for (size_t index = 0; index < found.size(); ++index) {
            const ZXing::Result &result = found[index];
            SVBarcode &barcode = (*results)[index];
            barcode.format = static_cast<int32_t>(result.format());
            barcode.text = copy(result.text());
            barcode.textLength = static_cast<int32_t>(result.text().size());
            barcode.byteCount = static_cast<int32_t>(result.bytes().size());
            barcode.bytes = static_cast<uint8_t *>(std::malloc(result.bytes().size() + 1));
            if (barcode.text == nullptr || barcode.bytes == nullptr) {
                svb_free_barcodes(*results, static_cast<int32_t>(index + 1));
                *results = nullptr;
                *count = 0;
                throw std::bad_alloc();
            }
            if (!result.bytes().empty()) std::memcpy(barcode.bytes, result.bytes().data(), result.bytes().size());
            const ZXing::Position &position = result.position();
            for (int corner = 0; corner < 4; ++corner) {
                barcode.corners[2 * corner] = position[corner].x;
                barcode.corners[2 * corner + 1] = position[corner].y;
            }
            barcode.orientation = result.orientation();
            barcode.isMirrored = result.isMirrored() ? 1 : 0;
            std::strncpy(barcode.symbologyIdentifier, result.symbologyIdentifier().c_str(),
                         sizeof(barcode.symbologyIdentifier) - 1);
        }
        return 0;
    } catch (const std::exception &error) {
        lastError = error.what();
    } catch (...) {
        lastError = "unknown C++ exception";
    }
    return -1;
}

void svb_free_barcodes(SVBarcode *results, int32_t count) {
    if (results == nullptr) return;
    for (int32_t index = 0; index < count; ++index) {
        std::free(results[index].text);
        std::free(results[index].bytes);
    }
    std::free(results);
}

const char *svb_interface(void) {
    static const std::string text = [] {
        char described[SVB_INTERFACE_CAPACITY];
        svb_describe_interface(described);
        return std::string(described);
    }();
    return text.c_str();
}

}  // extern "C"

#define SVB_TYPE_CHECK(result, name, parameters)                                                                      \
    static_assert(std::is_same_v<decltype(&name), name##Function>, #name " has the type CBarcodeShim.h declares");
SVB_FUNCTIONS(SVB_TYPE_CHECK)
