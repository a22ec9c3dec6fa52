// sv_decode and sv_encode: JPEG, PNG and WebP straight through libjpeg-turbo, libpng and libwebp, with the
// same settings and transforms as OpenCV 4.6's imgcodecs (grfmt_jpeg.cpp, grfmt_png.cpp, grfmt_webp.cpp), so
// the pixels are the same as cv::imdecode's; HEIF and AVIF (which OpenCV 4.6 does not read) through libheif
// (heif.cpp), GIF (which it does not read either) through leptonica (gif.cpp). Other formats go to OpenCV's imgcodecs in
// libSwiftVisionMedia.so (media_library.cpp); imgcodecs is not linked here because Debian's build of it
// pulls in GDAL and about 140 other libraries.
//
// libjpeg and libpng report fatal errors by longjmp: the functions that call setjmp hold no C++ object
// whose destructor a jump would skip.
#include "CodecMessages.hpp"
#include "LoadedCodecs.hpp"
#include "MediaLibrary.hpp"
#include "ShimSupport.hpp"

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" {
#include <jpeglib.h>
}
#include <png.h>
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>

using namespace shim;

namespace {

/// OpenCV's own ceiling on decoded pixels, kept for the decoders here: ImageLimits refuses large images
/// from their headers first; this guards against a header parser and a decoder that disagree.
constexpr uint64_t pixelCeiling = uint64_t(1) << 27;

enum class Format { jpeg, png, webp, heif, gif, other };

Format format(const uint8_t *bytes, size_t length) {
    if (length >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) return Format::jpeg;
    if (length >= 8 && std::memcmp(bytes, "\x89PNG\r\n\x1a\n", 8) == 0) return Format::png;
    if (length >= 12 && std::memcmp(bytes, "RIFF", 4) == 0 && std::memcmp(bytes + 8, "WEBP", 4) == 0) return Format::webp;
    if (sv_heif_kind(bytes, length) != SV_HEIF_NONE) return Format::heif;
    if (isGIF(bytes, length)) return Format::gif;
    return Format::other;
}

// MARK: JPEG

struct JPEGErrors {
    jpeg_error_mgr manager;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

void jpegFail(j_common_ptr info) {
    auto *errors = reinterpret_cast<JPEGErrors *>(info->err);
    errors->manager.format_message(info, errors->message);
    if (codecMessagesShown()) std::fprintf(stderr, "libjpeg: %s\n", errors->message);
    std::longjmp(errors->jump, 1);
}

/// libjpeg's warnings ("Corrupt JPEG data: …"): the image is still decoded, as OpenCV does.
void jpegWarn(j_common_ptr info) {
    if (!codecMessagesShown()) return;
    char message[JMSG_LENGTH_MAX];
    info->err->format_message(info, message);
    std::fprintf(stderr, "%s\n", message);
}

/// OpenCV's CMYK → BGR (icvCvt_CMYK2BGR_8u_C4C3R) for Adobe CMYK and YCCK JPEGs.
void cmykToBGR(const uint8_t *cmyk, uint8_t *bgr, int32_t width) {
    for (int32_t x = 0; x < width; ++x, cmyk += 4, bgr += 3) {
        const int k = cmyk[3];
        bgr[2] = static_cast<uint8_t>(k - ((255 - cmyk[0]) * k >> 8));
        bgr[1] = static_cast<uint8_t>(k - ((255 - cmyk[1]) * k >> 8));
        bgr[0] = static_cast<uint8_t>(k - ((255 - cmyk[2]) * k >> 8));
    }
}

int decodeJPEG(const uint8_t *bytes, size_t length, int reduction, SVImageView destination, int32_t *width,
               int32_t *height) {
    jpeg_decompress_struct info;
    JPEGErrors errors;
    info.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = jpegFail;
    errors.manager.output_message = jpegWarn;
    std::strcpy(errors.message, "the JPEG data could not be read");
    uint8_t *volatile cmyk = nullptr;
    volatile int status = -1;
    volatile bool scanned = false;
    jpeg_create_decompress(&info);
    if (setjmp(errors.jump) == 0) {
        jpeg_mem_src(&info, bytes, static_cast<unsigned long>(length));
        jpeg_read_header(&info, TRUE);
        info.scale_num = 1;
        info.scale_denom = static_cast<unsigned int>(reduction);
        const bool isCMYK = info.num_components == 4;
        info.out_color_space = isCMYK ? JCS_CMYK : JCS_EXT_BGR;
        jpeg_calc_output_dimensions(&info);
        status = fitDecoded(info.output_width, info.output_height, destination, width, height);
        if (status == 0) {
            jpeg_start_decompress(&info);
            if (isCMYK) {
                cmyk = static_cast<uint8_t *>(std::malloc(size_t(info.output_width) * 4));
                if (cmyk == nullptr) {
                    std::strcpy(errors.message, "out of memory");
                    std::longjmp(errors.jump, 1);
                }
            }
            while (info.output_scanline < info.output_height) {
                uint8_t *row = destination.data + size_t(info.output_scanline) * size_t(destination.bytesPerRow);
                JSAMPROW target = isCMYK ? cmyk : row;
                jpeg_read_scanlines(&info, &target, 1);
                if (isCMYK) cmykToBGR(cmyk, row, destination.width);
            }
            scanned = true;
            jpeg_finish_decompress(&info);
        }
    } else {
        // As OpenCV: once every row is out, an error in the data after them does not fail the image.
        status = scanned ? 0 : -1;
    }
    std::free(cmyk);
    jpeg_destroy_decompress(&info);
    if (status == -1 && lastError.empty()) lastError = errors.message;
    return status;
}

int encodeJPEG(SVImageView source, int quality, uint8_t **output, size_t *length) {
    jpeg_compress_struct info;
    JPEGErrors errors;
    info.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = jpegFail;
    errors.manager.output_message = jpegWarn;
    unsigned char *buffer = nullptr;
    unsigned long size = 0;
    volatile int status = -1;
    jpeg_create_compress(&info);
    if (setjmp(errors.jump) == 0) {
        jpeg_mem_dest(&info, &buffer, &size);
        info.image_width = static_cast<JDIMENSION>(source.width);
        info.image_height = static_cast<JDIMENSION>(source.height);
        info.input_components = source.channels;
        info.in_color_space = source.channels == 1 ? JCS_GRAYSCALE : JCS_EXT_BGR;
        jpeg_set_defaults(&info);
        jpeg_set_quality(&info, quality, TRUE);
        jpeg_start_compress(&info, TRUE);
        while (info.next_scanline < info.image_height) {
            JSAMPROW row = source.data + size_t(info.next_scanline) * size_t(source.bytesPerRow);
            jpeg_write_scanlines(&info, &row, 1);
        }
        jpeg_finish_compress(&info);
        status = 0;
    } else {
        lastError = errors.message;
    }
    jpeg_destroy_compress(&info);
    if (status == 0) {
        *output = buffer;
        *length = size;
    } else {
        std::free(buffer);
    }
    return status;
}

// MARK: PNG

struct PNGSource {
    const uint8_t *bytes;
    size_t length;
    size_t position;
};

struct PNGErrors {
    char message[256];
};

void pngRead(png_structp png, png_bytep target, size_t count) {
    auto *source = static_cast<PNGSource *>(png_get_io_ptr(png));
    if (count > source->length - source->position) png_error(png, "the PNG data ends early");
    std::memcpy(target, source->bytes + source->position, count);
    source->position += count;
}

void pngFail(png_structp png, png_const_charp message) {
    auto *errors = static_cast<PNGErrors *>(png_get_error_ptr(png));
    std::snprintf(errors->message, sizeof errors->message, "%s", message);
    if (codecMessagesShown()) std::fprintf(stderr, "libpng error: %s\n", message);
    png_longjmp(png, 1);
}

void pngWarn(png_structp, png_const_charp message) {
    if (codecMessagesShown()) std::fprintf(stderr, "libpng warning: %s\n", message);
}

int decodePNG(const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height) {
    PNGSource source{bytes, length, 0};
    PNGErrors errors{"the PNG data could not be read"};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &errors, pngFail, pngWarn);
    png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
    png_bytep *volatile rows = nullptr;
    volatile int status = -1;
    if (png != nullptr && info != nullptr && setjmp(png_jmpbuf(png)) == 0) {
        png_set_read_fn(png, &source, pngRead);
        png_read_info(png, info);
        png_uint_32 imageWidth = 0, imageHeight = 0;
        int bitDepth = 0, colorType = 0;
        png_get_IHDR(png, info, &imageWidth, &imageHeight, &bitDepth, &colorType, nullptr, nullptr, nullptr);
        status = fitDecoded(imageWidth, imageHeight, destination, width, height);
        if (status == 0) {
            // OpenCV's transforms for an 8-bit colour image, in its order.
            if (bitDepth == 16) png_set_strip_16(png);
            png_set_strip_alpha(png);
            if (colorType == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
            if ((colorType & PNG_COLOR_MASK_COLOR) == 0 && bitDepth < 8) png_set_expand_gray_1_2_4_to_8(png);
            if ((colorType & PNG_COLOR_MASK_COLOR) != 0) png_set_bgr(png);
            else png_set_gray_to_rgb(png);
            png_set_interlace_handling(png);
            png_read_update_info(png, info);
            if (png_get_rowbytes(png, info) != size_t(imageWidth) * 3) png_error(png, "unexpected row layout");
            rows = static_cast<png_bytep *>(std::malloc(sizeof(png_bytep) * imageHeight));
            if (rows == nullptr) png_error(png, "out of memory");
            for (png_uint_32 y = 0; y < imageHeight; ++y) rows[y] = destination.data + size_t(y) * size_t(destination.bytesPerRow);
            png_read_image(png, rows);
            png_read_end(png, nullptr);
        }
    } else {
        status = -1;
    }
    std::free(rows);
    png_destroy_read_struct(png != nullptr ? &png : nullptr, info != nullptr ? &info : nullptr, nullptr);
    if (status == -1 && lastError.empty()) lastError = errors.message;
    return status;
}

/// Encoded bytes gathered in a malloc'd buffer.
struct PNGSink {
    uint8_t *bytes;
    size_t length;
    size_t capacity;
};

void pngWrite(png_structp png, png_bytep data, size_t count) {
    auto *sink = static_cast<PNGSink *>(png_get_io_ptr(png));
    if (sink->length + count > sink->capacity) {
        const size_t capacity = std::max(sink->capacity * 2, sink->length + count);
        auto *grown = static_cast<uint8_t *>(std::realloc(sink->bytes, capacity));
        if (grown == nullptr) png_error(png, "out of memory");
        sink->bytes = grown;
        sink->capacity = capacity;
    }
    std::memcpy(sink->bytes + sink->length, data, count);
    sink->length += count;
}

void pngFlush(png_structp) {}

/// PNG as OpenCV writes it by default: the Sub filter, zlib level 1, run-length strategy.
int encodePNG(SVImageView source, uint8_t **output, size_t *length) {
    PNGErrors errors{"the PNG could not be written"};
    PNGSink sink{nullptr, 0, 0};
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &errors, pngFail, pngWarn);
    png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
    volatile int status = -1;
    if (png != nullptr && info != nullptr && setjmp(png_jmpbuf(png)) == 0) {
        png_set_write_fn(png, &sink, pngWrite, pngFlush);
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
        png_set_compression_level(png, 1);
        png_set_compression_strategy(png, 3);
        const int colorType = source.channels == 1   ? PNG_COLOR_TYPE_GRAY
                              : source.channels == 3 ? PNG_COLOR_TYPE_RGB
                                                     : PNG_COLOR_TYPE_RGB_ALPHA;
        png_set_IHDR(png, info, static_cast<png_uint_32>(source.width), static_cast<png_uint_32>(source.height), 8,
                     colorType, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_write_info(png, info);
        if (source.channels > 1) png_set_bgr(png);
        for (int32_t y = 0; y < source.height; ++y) png_write_row(png, source.data + size_t(y) * size_t(source.bytesPerRow));
        png_write_end(png, info);
        status = 0;
    }
    png_destroy_write_struct(png != nullptr ? &png : nullptr, info != nullptr ? &info : nullptr);
    if (status == 0) {
        *output = sink.bytes;
        *length = sink.length;
    } else {
        std::free(sink.bytes);
        lastError = errors.message;
    }
    return status;
}

// MARK: WebP

/// Copies packed BGRA `pixels` of `destination`'s size into it without their alpha.
void copyDroppingAlpha(const uint8_t *pixels, SVImageView destination) {
    for (int32_t y = 0; y < destination.height; ++y) {
        const uint8_t *from = pixels + size_t(y) * size_t(destination.width) * 4;
        uint8_t *to = destination.data + size_t(y) * size_t(destination.bytesPerRow);
        for (int32_t x = 0; x < destination.width; ++x, from += 4, to += 3) std::memcpy(to, from, 3);
    }
}

/// The first frame of an animated WebP, composed on its canvas as libwebp's animation decoder gives it, alpha
/// dropped: what iOS's decoders give for a still. OpenCV 4.6 reads no animation.
int decodeFirstWebPFrame(const uint8_t *bytes, size_t length, SVImageView destination) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) {
        lastError = "libwebp's animation decoder is from another version";
        return -1;
    }
    options.color_mode = MODE_BGRA;
    options.use_threads = 0;
    const WebPData data{bytes, length};
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&data, &options);
    if (decoder == nullptr) {
        lastError = "the animated WebP data could not be read";
        return -1;
    }
    WebPAnimInfo info;
    uint8_t *frame = nullptr;
    int timestamp = 0;
    const bool read = WebPAnimDecoderGetInfo(decoder, &info) && int64_t(info.canvas_width) == destination.width &&
                      int64_t(info.canvas_height) == destination.height && WebPAnimDecoderGetNext(decoder, &frame, &timestamp);
    if (read) copyDroppingAlpha(frame, destination);
    WebPAnimDecoderDelete(decoder);
    if (!read) lastError = "the animated WebP's first frame could not be decoded";
    return read ? 0 : -1;
}

int decodeWebP(const uint8_t *bytes, size_t length, SVImageView destination, int32_t *width, int32_t *height) {
    WebPBitstreamFeatures features;
    if (WebPGetFeatures(bytes, length, &features) != VP8_STATUS_OK) {
        lastError = "the WebP data could not be read";
        return -1;
    }
    const int status = fitDecoded(uint64_t(features.width), uint64_t(features.height), destination, width, height);
    if (status != 0) return status;
    if (features.has_animation) return decodeFirstWebPFrame(bytes, length, destination);
    const size_t size = size_t(destination.bytesPerRow) * size_t(destination.height);
    if (!features.has_alpha) {
        if (WebPDecodeBGRInto(bytes, length, destination.data, size, destination.bytesPerRow) == nullptr) {
            lastError = "the WebP data could not be decoded";
            return -1;
        }
        return 0;
    }
    // As OpenCV: decode with alpha, then drop it.
    std::vector<uint8_t> withAlpha(size_t(destination.width) * size_t(destination.height) * 4);
    if (WebPDecodeBGRAInto(bytes, length, withAlpha.data(), withAlpha.size(), destination.width * 4) == nullptr) {
        lastError = "the WebP data could not be decoded";
        return -1;
    }
    copyDroppingAlpha(withAlpha.data(), destination);
    return 0;
}

/// WebP as OpenCV writes it: lossless above quality 100, otherwise lossy at `quality`.
int encodeWebP(SVImageView source, int quality, uint8_t **output, size_t *length) {
    uint8_t *encoded = nullptr;
    const size_t size = quality > 100
                            ? WebPEncodeLosslessBGR(source.data, source.width, source.height, source.bytesPerRow, &encoded)
                            : WebPEncodeBGR(source.data, source.width, source.height, source.bytesPerRow,
                                            static_cast<float>(std::max(quality, 1)), &encoded);
    if (size == 0) {
        WebPFree(encoded);
        lastError = "the WebP encoder refused the image";
        return -1;
    }
    *output = static_cast<uint8_t *>(std::malloc(size));
    if (*output != nullptr) std::memcpy(*output, encoded, size);
    WebPFree(encoded);
    if (*output == nullptr) {
        lastError = "out of memory";
        return -1;
    }
    *length = size;
    return 0;
}

}  // namespace

int shim::fitDecoded(uint64_t width, uint64_t height, const SVImageView &destination, int32_t *outWidth,
                     int32_t *outHeight) {
    if (width == 0 || height == 0 || width * height > pixelCeiling) {
        lastError = "the image is " + std::to_string(width) + "×" + std::to_string(height) + " pixels, beyond what is decoded";
        return -1;
    }
    if (int64_t(width) == destination.width && int64_t(height) == destination.height && destination.channels == 3 &&
        destination.depth == SV_DEPTH_U8)
        return 0;
    *outWidth = static_cast<int32_t>(width);
    *outHeight = static_cast<int32_t>(height);
    return 1;
}

extern "C" {

int sv_decode(const uint8_t *bytes, size_t length, int reduction, SVImageView destination, int32_t *width,
              int32_t *height) {
    if (reduction != 1 && reduction != 2 && reduction != 4 && reduction != 8) {
        lastError = "reduction must be 1, 2, 4 or 8";
        return -1;
    }
    lastError.clear();
    return guarded([&] {
        switch (format(bytes, length)) {
        case Format::jpeg: return decodeJPEG(bytes, length, reduction, destination, width, height);
        case Format::png: return decodePNG(bytes, length, destination, width, height);
        case Format::webp: return decodeWebP(bytes, length, destination, width, height);
        case Format::heif: return decodeHEIF(bytes, length, destination, width, height);
        case Format::gif: return decodeGIF(bytes, length, destination, width, height);
        case Format::other: return MediaLibrary::decodeAny(bytes, length, destination, width, height);
        }
        return -1;
    });
}

int sv_encode(SVImageView source, const char *extension, int quality, uint8_t **output, size_t *length) {
    if (source.depth != SV_DEPTH_U8) {
        lastError = "only 8-bit images are encoded";
        return -1;
    }
    return guarded([&] {
        if (std::strcmp(extension, ".jpg") == 0 && source.channels != 4) return encodeJPEG(source, quality, output, length);
        if (std::strcmp(extension, ".png") == 0) return encodePNG(source, output, length);
        if (std::strcmp(extension, ".webp") == 0 && source.channels == 3) return encodeWebP(source, quality, output, length);
        return MediaLibrary::encodeAny(source, extension, quality, output, length);
    });
}

}  // extern "C"
