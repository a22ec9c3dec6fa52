// libSwiftVisionImaging.so: OpenCV's core and imgproc behind the functions of CVisionImaging.h (colour,
// geometry, drawing, normalisation); analysis.cpp and appearance.cpp hold the rest. The C shim loads it on
// first use (imaging_library.cpp).
#include "CVisionImaging.h"
#include "OpenCVSupport.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

static_assert(SV_DEPTH_U8 == CV_8U && SV_DEPTH_F32 == CV_32F, "depth codes");
static_assert(int(SV_COLOR_ADD_ALPHA) == int(cv::COLOR_BGR2BGRA) && int(SV_COLOR_DROP_ALPHA) == int(cv::COLOR_BGRA2BGR) &&
              int(SV_COLOR_SWAP_ADD_ALPHA) == int(cv::COLOR_RGB2BGRA) && int(SV_COLOR_SWAP_DROP_ALPHA) == int(cv::COLOR_BGRA2RGB) &&
              int(SV_COLOR_SWAP) == int(cv::COLOR_BGR2RGB) && int(SV_COLOR_SWAP_KEEP_ALPHA) == int(cv::COLOR_BGRA2RGBA) &&
              int(SV_COLOR_BGR_TO_GRAY) == int(cv::COLOR_BGR2GRAY) && int(SV_COLOR_RGB_TO_GRAY) == int(cv::COLOR_RGB2GRAY) &&
              int(SV_COLOR_GRAY_TO_3) == int(cv::COLOR_GRAY2BGR) && int(SV_COLOR_GRAY_TO_4) == int(cv::COLOR_GRAY2BGRA) &&
              int(SV_COLOR_BGRA_TO_GRAY) == int(cv::COLOR_BGRA2GRAY) && int(SV_COLOR_RGBA_TO_GRAY) == int(cv::COLOR_RGBA2GRAY) &&
              int(SV_COLOR_NV12_TO_RGB) == int(cv::COLOR_YUV2RGB_NV12) && int(SV_COLOR_NV12_TO_BGR) == int(cv::COLOR_YUV2BGR_NV12),
              "colour conversion codes");
static_assert(int(SV_INTER_NEAREST) == int(cv::INTER_NEAREST) && int(SV_INTER_LINEAR) == int(cv::INTER_LINEAR) &&
              int(SV_INTER_CUBIC) == int(cv::INTER_CUBIC) && int(SV_INTER_AREA) == int(cv::INTER_AREA), "interpolation codes");
static_assert(int(SV_ROTATE_90_CLOCKWISE) == int(cv::ROTATE_90_CLOCKWISE) && int(SV_ROTATE_180) == int(cv::ROTATE_180) &&
              int(SV_ROTATE_90_COUNTERCLOCKWISE) == int(cv::ROTATE_90_COUNTERCLOCKWISE), "rotation codes");

using namespace shim;

namespace {

/// Each value of a row of `pixels` pixels of `Channels` bytes, replaced by its channel's entry in `table`
/// (256 pixels of `Channels` floats, the entry for byte b of channel c at b * Channels + c).
template <int Channels> void lookUp(const uint8_t *from, float *to, int pixels, const float *table) {
    for (int pixel = 0; pixel < pixels; ++pixel, from += Channels, to += Channels) {
        for (int channel = 0; channel < Channels; ++channel) to[channel] = table[from[channel] * Channels + channel];
    }
}

/// One source pixel's share of one destination pixel, along one axis of an area shrink.
struct AreaTap {
    int source;
    float weight;
};

/// The taps of each destination pixel along an axis shrunk from `source` to `destination` pixels, with
/// OpenCV's weights (resize.cpp's computeResizeAreaTab): the part of each source pixel the destination
/// pixel's cell covers, over the cell's width. `starts[d]` to `starts[d + 1]` are destination pixel d's taps.
void areaTaps(int source, int destination, std::vector<AreaTap> &taps, std::vector<int> &starts) {
    const double scale = 1.0 / (double(destination) / source);
    taps.clear();
    starts.assign(1, 0);
    for (int d = 0; d < destination; ++d) {
        const double start = d * scale, end = start + scale;
        const double cell = std::min(scale, source - start);
        int last = std::min(int(std::floor(end)), source - 1);
        const int first = std::min(int(std::ceil(start)), last);
        if (first - start > 1e-3) taps.push_back({first - 1, float((first - start) / cell)});
        for (int s = first; s < last; ++s) taps.push_back({s, float(1.0 / cell)});
        if (end - last > 1e-3) taps.push_back({last, float(std::min(std::min(end - last, 1.0), cell) / cell)});
        starts.push_back(int(taps.size()));
    }
}

/// Adds `weight` times each of `count` bytes of `row` to `sums`; AVX2's eight lanes where the processor has
/// them (no fused multiply-add, so every processor rounds alike).
__attribute__((target_clones("avx2", "default"))) void addWeighted(float *sums, const uint8_t *row, float weight,
                                                                   int count) {
    for (int i = 0; i < count; ++i) sums[i] += weight * float(row[i]);
}

/// One destination row of an area shrink along its columns: element e (pixel e / stride, channel e % stride)
/// is the sum over `Taps` taps t of `weights[t * count + e]` times `sums[offsets[e] + t * stride]`, in that
/// order, rounded to the nearest byte (half to even, as cv::saturate_cast) and saturated. Pixels with fewer taps
/// have weights of 0 past them, which add exactly nothing. Eight pixels at a time where the processor has AVX2
/// (gathered loads, the same multiplications and additions in the same order, no fused multiply-add), so
/// that every processor rounds alike.
template <int Taps>
__attribute__((target("avx2"))) void sumTapsAVX2(const float *sums, const int *offsets, const float *weights, int stride,
                                                 int count, uint8_t *out) {
    int e = 0;
    for (; e + 8 <= count; e += 8) {
        const __m256i offset = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(offsets + e));
        __m256 pixel = _mm256_mul_ps(_mm256_loadu_ps(weights + e), _mm256_i32gather_ps(sums, offset, 4));
        for (int t = 1; t < Taps; ++t) {
            const __m256i next = _mm256_add_epi32(offset, _mm256_set1_epi32(t * stride));
            pixel = _mm256_add_ps(pixel, _mm256_mul_ps(_mm256_loadu_ps(weights + t * count + e), _mm256_i32gather_ps(sums, next, 4)));
        }
        const __m256i rounded = _mm256_cvtps_epi32(pixel);
        const __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(rounded), _mm256_extracti128_si256(rounded, 1));
        _mm_storel_epi64(reinterpret_cast<__m128i *>(out + e), _mm_packus_epi16(words, words));
    }
    for (; e < count; ++e) {
        float pixel = weights[e] * sums[offsets[e]];
        for (int t = 1; t < Taps; ++t) pixel += weights[t * count + e] * sums[offsets[e] + t * stride];
        out[e] = cv::saturate_cast<uint8_t>(pixel);
    }
}

template <int Taps>
void sumTaps(const float *sums, const int *offsets, const float *weights, int stride, int count, uint8_t *out) {
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2) return sumTapsAVX2<Taps>(sums, offsets, weights, stride, count, out);
    for (int e = 0; e < count; ++e) {
        float pixel = weights[e] * sums[offsets[e]];
        for (int t = 1; t < Taps; ++t) pixel += weights[t * count + e] * sums[offsets[e] + t * stride];
        out[e] = cv::saturate_cast<uint8_t>(pixel);
    }
}

/// OpenCV's area average (INTER_AREA) of 8-bit `source` into the smaller `target`, `Channels` per pixel, in
/// the other order: each destination row first sums its source rows whole (one multiply-add per source
/// byte, which the compiler vectorises), then each pixel sums its columns of that one row, from tables that
/// give every pixel as many taps as the widest one has (sumTaps). OpenCV sums the columns of every source row
/// first, by table: 2.8 ms against 0.41 for zidane.jpg to 192×108, 0.81 against 0.28 for a 447×447 crop to
/// 128×128 (one thread, this machine's AVX2); the tables took a 540×960 MIDV-500 frame to 360×640 in 0.13 ms
/// instead of 0.53 with the taps read one by one, with the same bytes.
template <int Channels>
void shrinkByArea(const cv::Mat &source, cv::Mat &target) {
    std::vector<AreaTap> rows, columns;
    std::vector<int> rowStarts, columnStarts;
    areaTaps(source.rows, target.rows, rows, rowStarts);
    areaTaps(source.cols, target.cols, columns, columnStarts);
    int taps = 1;
    for (int x = 0; x < target.cols; ++x) taps = std::max(taps, columnStarts[x + 1] - columnStarts[x]);
    const int count = target.cols * Channels;
    std::vector<int> offsets(static_cast<size_t>(count));
    std::vector<float> weights(static_cast<size_t>(taps) * count, 0.0f);
    for (int x = 0; x < target.cols; ++x) {
        for (int c = 0; c < Channels; ++c) {
            const int e = x * Channels + c;
            offsets[e] = columns[columnStarts[x]].source * Channels + c;
            for (int t = columnStarts[x]; t < columnStarts[x + 1]; ++t) {
                weights[static_cast<size_t>(t - columnStarts[x]) * count + e] = columns[t].weight;
            }
        }
    }
    const int width = source.cols * Channels;
    // Room past the row for the taps of weight 0 beyond the last pixel's.
    std::vector<float> sums(static_cast<size_t>(width + taps * Channels), 0.0f);
    for (int y = 0; y < target.rows; ++y) {
        std::fill(sums.begin(), sums.begin() + width, 0.0f);
        float *sum = sums.data();
        for (int tap = rowStarts[y]; tap < rowStarts[y + 1]; ++tap) {
            addWeighted(sum, source.ptr<uint8_t>(rows[tap].source), rows[tap].weight, width);
        }
        uint8_t *out = target.ptr<uint8_t>(y);
        switch (taps) {
        case 1: sumTaps<1>(sum, offsets.data(), weights.data(), Channels, count, out); break;
        case 2: sumTaps<2>(sum, offsets.data(), weights.data(), Channels, count, out); break;
        case 3: sumTaps<3>(sum, offsets.data(), weights.data(), Channels, count, out); break;
        default:
            for (int x = 0; x < target.cols; ++x) {
                float pixel[Channels] = {};
                for (int tap = columnStarts[x]; tap < columnStarts[x + 1]; ++tap) {
                    const float *column = sum + columns[tap].source * Channels;
                    for (int c = 0; c < Channels; ++c) pixel[c] += columns[tap].weight * column[c];
                }
                for (int c = 0; c < Channels; ++c) out[x * Channels + c] = cv::saturate_cast<uint8_t>(pixel[c]);
            }
        }
    }
}

}  // namespace

extern "C" {

const char *svi_last_error(void) { return lastError.c_str(); }

int32_t svi_set_thread_count(int32_t count) {
    cv::setNumThreads(count);
    return cv::getNumThreads();
}

int svi_resize(SVImageView source, SVImageView destination, SVInterpolation interpolation) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        const cv::Mat input = asMat(source);
        // OpenCV's area resize is fast (vectorised) only for whole-number factors; other 8-bit shrinks
        // take the same average in an order that vectorises.
        const bool shrinks = target.cols > 0 && target.rows > 0 && input.cols >= target.cols && input.rows >= target.rows;
        const bool wholeFactors = shrinks && input.cols % target.cols == 0 && input.rows % target.rows == 0;
        if (interpolation == SV_INTER_AREA && shrinks && !wholeFactors && input.depth() == CV_8U && target.type() == input.type()) {
            switch (input.channels()) {
            case 1: shrinkByArea<1>(input, target); return checkedInPlace(target, destination);
            case 3: shrinkByArea<3>(input, target); return checkedInPlace(target, destination);
            case 4: shrinkByArea<4>(input, target); return checkedInPlace(target, destination);
            default: break;
            }
        }
        cv::resize(input, target, target.size(), 0, 0, interpolation);
        return checkedInPlace(target, destination);
    });
}

int svi_rotate(SVImageView source, SVImageView destination, SVRotation rotation) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::rotate(asMat(source), target, rotation);
        return checkedInPlace(target, destination);
    });
}

int svi_flip(SVImageView source, SVImageView destination, SVFlip flip) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::flip(asMat(source), target, flip);
        return checkedInPlace(target, destination);
    });
}

int svi_convert_color(SVImageView source, SVImageView destination, SVColorConversion conversion) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::cvtColor(asMat(source), target, conversion);
        return checkedInPlace(target, destination);
    });
}

int svi_warp_affine(SVImageView source, SVImageView destination, const double matrix[6],
                   SVInterpolation interpolation, const double border[4]) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        const cv::Mat transform(2, 3, CV_64F, const_cast<double *>(matrix));
        cv::warpAffine(asMat(source), target, transform, target.size(), interpolation | cv::WARP_INVERSE_MAP,
                       border ? cv::BORDER_CONSTANT : cv::BORDER_REPLICATE, border ? scalar(border) : cv::Scalar());
        return checkedInPlace(target, destination);
    });
}

int svi_copy(SVImageView source, SVImageView destination) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        asMat(source).copyTo(target);
        return checkedInPlace(target, destination);
    });
}

int svi_fill(SVImageView destination, const double value[4]) {
    return guarded([&] {
        asMat(destination).setTo(scalar(value));
        return 0;
    });
}

int svi_normalize(SVImageView source, SVImageView destination, const double mean[4], const double std[4]) {
    return guarded([&] {
        cv::Mat input = asMat(source), target = asMat(destination);
        const auto normalize = [&](const cv::Mat &from, cv::Mat &to) {
            from.convertTo(to, CV_32F);
            cv::subtract(to, scalar(mean), to);
            cv::divide(to, scalar(std), to);
        };
        const int channels = input.channels();
        if (input.depth() != CV_8U || target.type() != CV_MAKETYPE(CV_32F, channels) || input.size() != target.size()) {
            normalize(input, target);
            return checkedInPlace(target, destination);
        }
        // A byte has 256 values: normalise each once, by the same steps, then look every byte up.
        cv::Mat values(1, 256, CV_MAKETYPE(CV_8U, channels)), table;
        for (int value = 0; value < 256; ++value) {
            std::fill_n(values.ptr<uint8_t>() + value * channels, channels, uint8_t(value));
        }
        normalize(values, table);
        for (int y = 0; y < input.rows; ++y) {
            const uint8_t *from = input.ptr<uint8_t>(y);
            float *to = target.ptr<float>(y);
            switch (channels) {
            case 1: lookUp<1>(from, to, input.cols, table.ptr<float>()); break;
            case 3: lookUp<3>(from, to, input.cols, table.ptr<float>()); break;
            case 4: lookUp<4>(from, to, input.cols, table.ptr<float>()); break;
            default: lookUp<2>(from, to, input.cols, table.ptr<float>()); break;
            }
        }
        return 0;
    });
}

int svi_draw_rectangle(SVImageView image, double x, double y, double width, double height, const double color[4],
                      int thickness) {
    return guarded([&] {
        cv::Mat target = asMat(image);
        const int shift = 4;
        const double one = 1 << shift;
        cv::rectangle(target, cv::Point(cvRound(x * one), cvRound(y * one)),
                      cv::Point(cvRound((x + width) * one), cvRound((y + height) * one)), scalar(color), thickness,
                      cv::LINE_AA, shift);
        return 0;
    });
}

int svi_draw_polyline(SVImageView image, const double *xy, int32_t pointCount, int closed, const double color[4],
                     int thickness) {
    return guarded([&] {
        const int shift = 4;
        const double one = 1 << shift;
        std::vector<cv::Point> points(static_cast<size_t>(pointCount));
        for (int32_t index = 0; index < pointCount; ++index) {
            points[index] = cv::Point(cvRound(xy[2 * index] * one), cvRound(xy[2 * index + 1] * one));
        }
        cv::Mat target = asMat(image);
        cv::polylines(target, points, closed != 0, scalar(color), thickness, cv::LINE_AA, shift);
        return 0;
    });
}

int svi_draw_circle(SVImageView image, double x, double y, double radius, const double color[4], int thickness) {
    return guarded([&] {
        const int shift = 4;
        const double one = 1 << shift;
        cv::Mat target = asMat(image);
        cv::circle(target, cv::Point(cvRound(x * one), cvRound(y * one)), cvRound(radius * one), scalar(color),
                   thickness, cv::LINE_AA, shift);
        return 0;
    });
}

int svi_draw_text(SVImageView image, const char *text, double x, double y, double scale, const double color[4],
                 int thickness) {
    return guarded([&] {
        cv::Mat target = asMat(image);
        cv::putText(target, text, cv::Point(cvRound(x), cvRound(y)), cv::FONT_HERSHEY_SIMPLEX, scale, scalar(color),
                    thickness, cv::LINE_AA);
        return 0;
    });
}

int svi_text_size(const char *text, double scale, int thickness, int32_t *width, int32_t *height, int32_t *baseline) {
    return guarded([&] {
        int base = 0;
        const cv::Size size = cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, scale, thickness, &base);
        *width = size.width;
        *height = size.height;
        *baseline = base;
        return 0;
    });
}



int svi_convert_scale(SVImageView source, SVImageView destination, double scale, double offset) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        asMat(source).convertTo(target, target.type(), scale, offset);
        return checkedInPlace(target, destination);
    });
}

int svi_blend_weighted(SVImageView first, SVImageView second, SVImageView weights, SVImageView destination) {
    return guarded([&] {
        const cv::Mat firstWeights = asMat(weights);
        cv::Mat secondWeights;
        cv::subtract(cv::Scalar::all(1.0), firstWeights, secondWeights);
        cv::Mat target = asMat(destination);
        cv::blendLinear(asMat(first), asMat(second), firstWeights, secondWeights, target);
        return checkedInPlace(target, destination);
    });
}

int svi_correlation(SVImageView first, SVImageView second, double *score) {
    return guarded([&] {
        cv::Mat result;
        cv::matchTemplate(asMat(first), asMat(second), result, cv::TM_CCOEFF_NORMED);
        *score = result.at<float>(0, 0);
        return 0;
    });
}

}  // extern "C"
