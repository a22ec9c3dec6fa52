#include "CVisionImaging.h"
#include "OpenCVSupport.hpp"

#include <opencv2/imgproc.hpp>

#include <immintrin.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

static_assert(int(SV_MORPH_ERODE) == cv::MORPH_ERODE && int(SV_MORPH_DILATE) == cv::MORPH_DILATE &&
                  int(SV_MORPH_OPEN) == cv::MORPH_OPEN && int(SV_MORPH_CLOSE) == cv::MORPH_CLOSE,
              "morphology codes");

using namespace shim;

namespace {

/// `count` x, y pairs as a column of OpenCV points, read in place (cv::Point is two 32-bit coordinates).
cv::Mat points(const int32_t *xy, int32_t count) {
    static_assert(sizeof(cv::Point) == 2 * sizeof(int32_t), "cv::Point is two 32-bit coordinates");
    return cv::Mat(count, 1, CV_32SC2, const_cast<int32_t *>(xy));
}

void write(const std::vector<cv::Point> &source, int32_t *xy, int32_t *count) {
    for (size_t index = 0; index < source.size(); ++index) {
        xy[2 * index] = source[index].x;
        xy[2 * index + 1] = source[index].y;
    }
    *count = static_cast<int32_t>(source.size());
}

cv::Mat doubles(const double *values, int rows, int columns) {
    return cv::Mat(rows, columns, CV_64F, const_cast<double *>(values));
}

/// Marks the Canny edges in `edges` (255 on edges, 0 elsewhere), as cv::Canny marks them: every local
/// maximum of the gradient along its direction above the low threshold that is 8-connected through such
/// pixels to one above the high threshold. `classes` has a border of one zero pixel around the image and
/// holds, for each local maximum, which thresholds it exceeds: bit `LowBit` the low one, bit `HighBit` the
/// high one (a maximum above the high threshold is above the low one); other bits are ignored.
///
/// Written for few mispredicted branches, which took most of the time (0.45 of a 0.65 ms pair on a
/// 360×640 MIDV-500 frame): the map is made without branches, the strong pixels are found eight bytes
/// at a time, and the flood pushes every neighbour's offset and moves the top only past those it marks,
/// onto a stack with room for every candidate pixel (each is pushed at most once).
template <uchar LowBit, uchar HighBit> void traceEdges(const cv::Mat &classes, cv::Mat &edges) {
    const int rows = edges.rows, columns = edges.cols;
    constexpr uchar lowBit = LowBit, highBit = HighBit;
    cv::Mat map(rows + 2, columns + 2, CV_8U);
    const ptrdiff_t step = map.step1();
    uchar *const origin = map.ptr<uchar>(0);
    const uint64_t lowBits = 0x0101010101010101ull * lowBit, highBits = 0x0101010101010101ull * highBit;
    // 1: not an edge, 0: an edge if connected to a strong one, 2: an edge.
    size_t candidates = 0;
    for (int row = 0; row < rows + 2; ++row) {
        const uchar *kind = classes.ptr<uchar>(row);
        uchar *cell = map.ptr<uchar>(row);
        for (int column = 0; column < columns + 2; ++column) {
            const uchar bits = kind[column];
            cell[column] = uchar(((bits & lowBit) == 0) + 2 * ((bits & highBit) != 0));
        }
        for (int column = 0; column + 8 <= columns + 2; column += 8) {
            uint64_t word;
            std::memcpy(&word, kind + column, 8);
            candidates += size_t(__builtin_popcountll(word & lowBits));
        }
        for (int column = (columns + 2) / 8 * 8; column < columns + 2; ++column) candidates += (kind[column] & lowBit) != 0;
    }
    std::vector<uint32_t> stack(candidates + 1);
    uint32_t *const slots = stack.data();
    size_t top = 0;
    for (int row = 1; row <= rows; ++row) {
        const uchar *kind = classes.ptr<uchar>(row);
        const uint32_t rowStart = uint32_t(map.ptr<uchar>(row) - origin);
        int column = 0;
        for (; column + 8 <= columns + 2; column += 8) {
            uint64_t word;
            std::memcpy(&word, kind + column, 8);
            for (uint64_t strong = word & highBits; strong != 0; strong &= strong - 1) {
                slots[top++] = rowStart + uint32_t(column + __builtin_ctzll(strong) / 8);
            }
        }
        for (; column < columns + 2; ++column) {
            if (kind[column] & highBit) slots[top++] = rowStart + uint32_t(column);
        }
    }
    const ptrdiff_t neighbours[8] = {-1, 1, -step - 1, -step, -step + 1, step - 1, step, step + 1};
    while (top > 0) {
        const uint32_t offset = slots[--top];
        for (const ptrdiff_t neighbour : neighbours) {
            const uint32_t next = uint32_t(offset + neighbour);
            const uchar value = origin[next];
            const bool marks = value == 0;
            origin[next] = uchar(value + 2 * marks);
            slots[top] = next;
            top += marks;
        }
    }
    for (int row = 0; row < rows; ++row) {
        const uchar *cell = map.ptr<uchar>(row + 1) + 1;
        uchar *edge = edges.ptr<uchar>(row);
        for (int column = 0; column < columns; ++column) edge[column] = uchar(-(cell[column] >> 1));
    }
}

/// One row of cv::Canny's non-maxima suppression: for each pixel, 0 unless its squared gradient
/// magnitude exceeds both neighbours across the edge (the gradient's direction in one of four sectors,
/// split at tan 22.5° in 15-bit fixed point; the neighbour after may equal it except on a diagonal), and
/// otherwise bit 0 set where it exceeds `low`, bit 1 where it exceeds `high`, and bits 2 and 3 likewise for
/// a second pair, `laterLow` and `laterHigh` (INT_MAX for none). `above` starts one pixel left of the row's first
/// pixel, `centre` and `below` at it, each with a pixel of border on either side. Written without
/// branches so that it vectorises, with an AVX2 copy chosen at load time where the processor has it.
__attribute__((target_clones("avx2", "default"))) void classifyMaxima(
    const int *above, const int *centre, const int *below, const short *dx, const short *dy, int columns, int low,
    int high, int laterLow, int laterHigh, uchar *classes) {
    const int tangent22 = int(0.4142135623730950488016887242097 * (1 << 15) + 0.5);
    for (int column = 0; column < columns; ++column) {
        const int m = centre[column];
        const int xs = dx[column], ys = dy[column];
        const int ax = xs < 0 ? -xs : xs, ay = (ys < 0 ? -ys : ys) << 15;
        const int tg22x = ax * tangent22;
        const bool across = ay < tg22x, along = ay > tg22x + (ax << 16), rising = (xs ^ ys) < 0;
        const int left = centre[column - 1], right = centre[column + 1];
        const int up = above[column + 1], upLeft = above[column], upRight = above[column + 2];
        const int down = below[column], downLeft = below[column - 1], downRight = below[column + 1];
        const int before = across ? left : along ? up : rising ? upRight : upLeft;
        const int after = across ? right : along ? down : rising ? downLeft : downRight;
        const int isMaximum = (m > before) & (m + int(across | along) > after);
        classes[column] = uchar(isMaximum * ((m > low) | (m > high) << 1 | (m > laterLow) << 2 | (m > laterHigh) << 3));
    }
}

/// The gray level of `image` (8-bit, one channel) at (x, y), interpolated between the four nearest pixels;
/// points outside read the nearest edge. The arithmetic of the rectangle detector's Swift sampler, so that
/// both read the same levels to the last bit.
inline double intensity(const cv::Mat &image, double x, double y) {
    x = std::min(std::max(x, 0.0), double(image.cols - 1));
    y = std::min(std::max(y, 0.0), double(image.rows - 1));
    const int left = int(x), top = int(y);
    const int right = std::min(left + 1, image.cols - 1), bottom = std::min(top + 1, image.rows - 1);
    const double fx = x - double(left), fy = y - double(top);
    const uchar *upperRow = image.ptr<uchar>(top), *lowerRow = image.ptr<uchar>(bottom);
    const double upper = double(upperRow[left]) * (1 - fx) + double(upperRow[right]) * fx;
    const double lower = double(lowerRow[left]) * (1 - fx) + double(lowerRow[right]) * fx;
    return upper * (1 - fy) + lower * fy;
}

/// For each lane, the byte at `index` of `data` in bits 0–7 and the byte after it in bits 8–15, from one
/// gather of 32 bits. `Clamped`, it starts no later than `last` (the image's last four bytes), so never reads
/// past it; otherwise the caller knows that every four bytes from `index` lie inside the image.
template <bool Clamped>
__attribute__((target("avx2"))) inline __m128i bytePairs(const uchar *data, __m128i index, __m128i last) {
    if constexpr (!Clamped) return _mm_i32gather_epi32(reinterpret_cast<const int *>(data), index, 1);
    const __m128i start = _mm_min_epi32(index, last);
    const __m128i shift = _mm_slli_epi32(_mm_sub_epi32(index, start), 3);
    return _mm_srlv_epi32(_mm_i32gather_epi32(reinterpret_cast<const int *>(data), start, 1), shift);
}

/// ``intensity`` at four points at once, each lane with the same arithmetic (AVX2, no fused multiply-add).
/// `last` is the offset of the image's last four bytes (at least four); the offset of the row below the
/// last, plus the width, must fit in 32 bits.
///
/// It reads the pixel right of `left` and the row below `top` even in the last column and row, where the
/// scalar version reads `left` and `top` again: there `x` or `y` has been clamped to the edge, so the
/// fraction weighing them is 0, and a level times 0 added to one times 1 leaves that level exactly.
/// `Clamped` as for ``bytePairs``.
template <bool Clamped>
__attribute__((target("avx2"))) inline __m256d intensities(const uchar *data, __m128i stride, __m256d maxX,
                                                            __m256d maxY, __m128i last, __m256d x, __m256d y) {
    x = _mm256_min_pd(_mm256_max_pd(x, _mm256_setzero_pd()), maxX);
    y = _mm256_min_pd(_mm256_max_pd(y, _mm256_setzero_pd()), maxY);
    const __m128i left = _mm256_cvttpd_epi32(x), top = _mm256_cvttpd_epi32(y);
    const __m256d fx = _mm256_sub_pd(x, _mm256_cvtepi32_pd(left)), fy = _mm256_sub_pd(y, _mm256_cvtepi32_pd(top));
    const __m128i upperIndex = _mm_add_epi32(_mm_mullo_epi32(top, stride), left);
    const __m128i upper = bytePairs<Clamped>(data, upperIndex, last);
    const __m128i lower = bytePairs<Clamped>(data, _mm_add_epi32(upperIndex, stride), last);
    const __m128i low = _mm_set1_epi32(0xFF);
    const __m128i upperLeft = _mm_and_si128(upper, low), lowerLeft = _mm_and_si128(lower, low);
    const __m128i upperRight = _mm_and_si128(_mm_srli_epi32(upper, 8), low);
    const __m128i lowerRight = _mm_and_si128(_mm_srli_epi32(lower, 8), low);
    const __m256d unit = _mm256_set1_pd(1), restX = _mm256_sub_pd(unit, fx), restY = _mm256_sub_pd(unit, fy);
    const __m256d upperLevel = _mm256_add_pd(_mm256_mul_pd(_mm256_cvtepi32_pd(upperLeft), restX),
                                             _mm256_mul_pd(_mm256_cvtepi32_pd(upperRight), fx));
    const __m256d lowerLevel = _mm256_add_pd(_mm256_mul_pd(_mm256_cvtepi32_pd(lowerLeft), restX),
                                             _mm256_mul_pd(_mm256_cvtepi32_pd(lowerRight), fx));
    return _mm256_add_pd(_mm256_mul_pd(upperLevel, restY), _mm256_mul_pd(lowerLevel, fy));
}

/// The profiles of svi_profile_steps at one base, into `levels`: four offsets at a time with AVX2.
/// `Clamped` as for ``bytePairs``.
template <bool Clamped>
__attribute__((target("avx2"))) void profilesAVX2(const cv::Mat &image, double x, double y, const double across[2],
                                                  const double along[2], const double *offsets, int count,
                                                  double *levels) {
    const uchar *data = image.ptr<uchar>(0);
    const int step = int(image.step[0]);
    const __m256d maxX = _mm256_set1_pd(double(image.cols - 1)), maxY = _mm256_set1_pd(double(image.rows - 1));
    const __m128i stride = _mm_set1_epi32(step);
    const __m128i last = _mm_set1_epi32(int((image.rows - 1) * step + image.cols - 4));
    const __m256d baseX = _mm256_set1_pd(x), baseY = _mm256_set1_pd(y);
    const __m256d acrossX = _mm256_set1_pd(across[0]), acrossY = _mm256_set1_pd(across[1]);
    const __m256d alongX = _mm256_set1_pd(along[0]), alongY = _mm256_set1_pd(along[1]);
    int index = 0;
    for (; index + 4 <= count; index += 4) {
        const __m256d offset = _mm256_loadu_pd(offsets + index);
        const __m256d px = _mm256_add_pd(baseX, _mm256_mul_pd(acrossX, offset));
        const __m256d py = _mm256_add_pd(baseY, _mm256_mul_pd(acrossY, offset));
        const __m256d before = intensities<Clamped>(data, stride, maxX, maxY, last, _mm256_sub_pd(px, alongX),
                                           _mm256_sub_pd(py, alongY));
        const __m256d at = intensities<Clamped>(data, stride, maxX, maxY, last, px, py);
        const __m256d after = intensities<Clamped>(data, stride, maxX, maxY, last, _mm256_add_pd(px, alongX),
                                          _mm256_add_pd(py, alongY));
        _mm256_storeu_pd(levels + index, _mm256_div_pd(_mm256_add_pd(_mm256_add_pd(before, at), after), _mm256_set1_pd(3)));
    }
    // The offsets left over, one at a time: its three points in the lanes of one vector.
    for (; index < count; ++index) {
        const double px = x + across[0] * offsets[index], py = y + across[1] * offsets[index];
        const __m256d pointsX = _mm256_setr_pd(px - along[0], px, px + along[0], px);
        const __m256d pointsY = _mm256_setr_pd(py - along[1], py, py + along[1], py);
        alignas(32) double three[4];
        _mm256_store_pd(three, intensities<Clamped>(data, stride, maxX, maxY, last, pointsX, pointsY));
        levels[index] = (three[0] + three[1] + three[2]) / 3;
    }
}

/// One row of cv::Sobel's 3×3 derivatives of an 8-bit image in x (`dx`) and y (`dy`), 16-bit, with the
/// border replicated: `above` and `below` are the neighbouring rows (the row itself at the image's edge).
/// Integer sums, so the same values as cv::Sobel's to the last bit, a row at a time instead of two whole
/// 16-bit images.
__attribute__((target_clones("avx2", "default"))) void sobelRow(const uchar *__restrict above,
                                                                const uchar *__restrict centre,
                                                                const uchar *__restrict below, int columns,
                                                                short *__restrict dx, short *__restrict dy) {
    const auto at = [&](const uchar *row, int column) { return int(row[std::min(std::max(column, 0), columns - 1)]); };
    const auto edge = [&](int column) {
        const int left = column - 1, right = column + 1;
        dx[column] = short((at(above, right) - at(above, left)) + 2 * (at(centre, right) - at(centre, left)) +
                           (at(below, right) - at(below, left)));
        dy[column] = short((at(below, left) + 2 * at(below, column) + at(below, right)) -
                           (at(above, left) + 2 * at(above, column) + at(above, right)));
    };
    edge(0);
    for (int column = 1; column < columns - 1; ++column) {
        dx[column] = short((above[column + 1] - above[column - 1]) + 2 * (centre[column + 1] - centre[column - 1]) +
                           (below[column + 1] - below[column - 1]));
        dy[column] = short((below[column - 1] + 2 * below[column] + below[column + 1]) -
                           (above[column - 1] + 2 * above[column] + above[column + 1]));
    }
    if (columns > 1) edge(columns - 1);
}

/// The widest block thresholdByMean takes; cv::adaptiveThreshold takes wider ones.
constexpr int maximumMeanBlock = 99;

/// Moves the block's column sums of thresholdByMean down a row: each of `columns` sums gains the pixel of
/// the row `entering` and loses that of the row `leaving`. In one pass rather than two, eight or more sums
/// at a time with an AVX2 copy chosen at load time where the processor has it.
__attribute__((target_clones("avx2", "default"))) void moveColumnSums(int32_t *__restrict sums,
                                                                      const uchar *__restrict entering,
                                                                      const uchar *__restrict leaving, int columns) {
    for (int column = 0; column < columns; ++column) sums[column] += int32_t(entering[column]) - int32_t(leaving[column]);
}

/// compareWithMeans eight pixels at a time, the same float products; how many pixels it did.
__attribute__((target("avx2"))) int compareWithMeansAVX2(const uchar *pixels, const int32_t *windows, int count,
                                                         int32_t area, float scale, int limit, int flip, uchar *out) {
    const __m256i areas = _mm256_set1_epi32(area), limits = _mm256_set1_epi32(limit);
    const __m256i full = _mm256_set1_epi32(255), flips = _mm256_set1_epi32(flip);
    const __m256 scales = _mm256_set1_ps(scale);
    int index = 0;
    for (; index + 8 <= count; index += 8) {
        const __m256i window = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(windows + index));
        const __m256i numerator = _mm256_add_epi32(_mm256_slli_epi32(window, 1), areas);
        const __m256i mean = _mm256_cvttps_epi32(_mm256_mul_ps(_mm256_cvtepi32_ps(numerator), scales));
        const __m256i level = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i *>(pixels + index)));
        const __m256i above = _mm256_cmpgt_epi32(_mm256_sub_epi32(level, mean), limits);
        const __m256i value = _mm256_xor_si256(_mm256_and_si256(above, full), flips);
        const __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(value), _mm256_extracti128_si256(value, 1));
        _mm_storel_epi64(reinterpret_cast<__m128i *>(out + index), _mm_packus_epi16(words, words));
    }
    return index;
}

/// One row of thresholdByMean: 255 where `pixels[i]` less the rounded mean `windows[i]` / `area` exceeds
/// `limit` (is at most `limit` when `inverted`). (2 × window + area) / (2 × area) is never a whole number
/// (its numerator is odd) but at least 1 / (2 × area) from one, further than a float product of the
/// numerator (below 2²³, exact) and the reciprocal strays, so the product's floor is the rounded mean.
void compareWithMeans(const uchar *pixels, const int32_t *windows, int count, int32_t area, int limit, bool inverted,
                      uchar *out) {
    const float scale = 1.0f / float(2 * area);
    const int flip = inverted ? 255 : 0;
    int index = 0;
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2) index = compareWithMeansAVX2(pixels, windows, count, area, scale, limit, flip, out);
    for (; index < count; ++index) {
        const int mean = int(float(2 * windows[index] + area) * scale);
        const int difference = int(pixels[index]) - mean;
        out[index] = uchar((difference > limit ? 255 : 0) ^ flip);
    }
}

/// cv::adaptiveThreshold (ADAPTIVE_THRESH_MEAN_C, maximum 255) of 8-bit `gray`, at least 4 columns wide, into
/// `target`: 255 where a pixel less the mean of its `block`×`block` neighbourhood (the border replicated),
/// rounded to a whole level, exceeds −⌈offset⌉ (at most −⌊offset⌋ when `inverted`), 0 elsewhere. The sums are
/// kept as the block moves, down the columns and then along each row, in whole numbers: 0.29 → 0.21 ms on a
/// 360×640 frame (block 31).
///
/// OpenCV rounds the mean from a float or double product of the sum and 1 / area; the area of an odd block
/// is odd, so the mean is never a whole level and a half, but at least 1 / (2 × area) from one, further than
/// a float product strays (255 × 2⁻²³ at most) while the block is at most maximumMeanBlock wide: both round
/// to the same level, the nearest.
void thresholdByMean(const cv::Mat &gray, cv::Mat &target, int block, double offset, bool inverted) {
    const int rows = gray.rows, columns = gray.cols, radius = block / 2;
    const int32_t area = block * block;
    const int limit = inverted ? -cvFloor(offset) : -cvCeil(offset);
    // The sums over the block around each pixel of a row, in four stretches of `stretch` (the last one longer).
    std::vector<int32_t> windows(static_cast<size_t>(columns));
    const int stretch = columns / 4;
    // The sums down each column over the block's rows, with `radius` replicated columns on either side.
    std::vector<int32_t> columnSums(size_t(columns) + 2 * radius, 0);
    int32_t *sums = columnSums.data() + radius;
    const auto pixelRow = [&](int row) { return gray.ptr<uchar>(std::min(std::max(row, 0), rows - 1)); };
    for (int row = -radius; row <= radius; ++row) {
        const uchar *pixels = pixelRow(row);
        for (int column = 0; column < columns; ++column) sums[column] += int32_t(pixels[column]);
    }
    for (int row = 0; row < rows; ++row) {
        if (row > 0) {
            moveColumnSums(sums, pixelRow(row + radius), pixelRow(row - radius - 1), columns);
        }
        for (int side = 1; side <= radius; ++side) {
            sums[-side] = sums[0];
            sums[columns - 1 + side] = sums[columns - 1];
        }
        // Four stretches of the row at a time, each with its own running sum, so that the additions overlap.
        const auto start = [&](int column) {
            int32_t window = 0;
            for (int offset = -radius; offset <= radius; ++offset) window += sums[column + offset];
            return windows[column] = window;
        };
        int32_t first = start(0), second = start(stretch), third = start(2 * stretch), fourth = start(3 * stretch);
        const auto move = [&](int32_t &window, int column) {
            window += sums[column + radius] - sums[column - radius - 1];
            windows[column] = window;
        };
        for (int step = 1; step < stretch; ++step) {
            move(first, step);
            move(second, stretch + step);
            move(third, 2 * stretch + step);
            move(fourth, 3 * stretch + step);
        }
        for (int column = 4 * stretch; column < columns; ++column) move(fourth, column);
        compareWithMeans(gray.ptr<uchar>(row), windows.data(), columns, area, limit, inverted, target.ptr<uchar>(row));
    }
}

/// cv::Canny's threshold (3×3 Sobel, L2 gradient) on the squared magnitude: the square of `threshold`, floored.
int squaredThreshold(double threshold) {
    threshold = std::min(32767.0, threshold);
    return cvFloor(threshold > 0 ? threshold * threshold : threshold);
}

/// The classes of traceEdges for the 8-bit gray `gray` into `classes`, two pixels wider and taller than it (a
/// border of zeros): which local maxima of the gradient exceed `low` and `high` (bits 0 and 1) and, where
/// given, a second pair (bits 2 and 3; without one, its bits stay 0), the thresholds as cv::Canny takes them.
void classifyCanny(const cv::Mat &gray, cv::Mat &classes, double low, double high, const double *later) {
    CV_Assert(gray.type() == CV_8UC1 && classes.type() == CV_8UC1 && classes.rows == gray.rows + 2 &&
              classes.cols == gray.cols + 2);
    const int rows = gray.rows, columns = gray.cols;
    // The derivatives of two rows at a time: the row classified and the next.
    std::vector<short> derivatives(4 * size_t(columns));
    const auto dxRow = [&](int row) { return derivatives.data() + size_t(row % 2) * columns; };
    const auto dyRow = [&](int row) { return derivatives.data() + size_t(2 + row % 2) * columns; };
    // The squared magnitude is kept for three rows at a time, with a border of zeros, as cv::Canny
    // compares the image's edge pixels.
    if (low > high) std::swap(low, high);
    const int lowSquared = squaredThreshold(low), highSquared = squaredThreshold(high);
    int laterLow = INT_MAX, laterHigh = INT_MAX;
    if (later != nullptr) {
        laterLow = squaredThreshold(std::min(later[0], later[1]));
        laterHigh = squaredThreshold(std::max(later[0], later[1]));
    }
    const size_t stride = size_t(columns) + 2;
    std::vector<int> magnitudes(3 * stride, 0);
    const auto magnitudeRow = [&](int row) { return magnitudes.data() + size_t((row + 3) % 3) * stride; };
    const auto computeRow = [&](int row) {
        int *out = magnitudeRow(row) + 1;
        if (row >= rows) {
            std::fill(out, out + columns, 0);
            return;
        }
        short *x = dxRow(row), *y = dyRow(row);
        sobelRow(gray.ptr<uchar>(std::max(row - 1, 0)), gray.ptr<uchar>(row), gray.ptr<uchar>(std::min(row + 1, rows - 1)),
                 columns, x, y);
        for (int column = 0; column < columns; ++column) out[column] = int(x[column]) * x[column] + int(y[column]) * y[column];
    };
    std::memset(classes.ptr<uchar>(0), 0, stride);
    std::memset(classes.ptr<uchar>(rows + 1), 0, stride);
    computeRow(0);
    for (int row = 0; row < rows; ++row) {
        computeRow(row + 1);
        uchar *line = classes.ptr<uchar>(row + 1);
        line[0] = line[columns + 1] = 0;
        classifyMaxima(magnitudeRow(row - 1), magnitudeRow(row) + 1, magnitudeRow(row + 1) + 1, dxRow(row), dyRow(row),
                       columns, lowSquared, highSquared, laterLow, laterHigh, line + 1);
    }
}

}  // namespace

extern "C" {

int svi_gaussian_blur(SVImageView source, SVImageView destination, double sigma) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::GaussianBlur(asMat(source), target, cv::Size(), sigma, sigma, cv::BORDER_REPLICATE);
        return checkedInPlace(target, destination);
    });
}

int svi_canny(SVImageView source, SVImageView destination, double lowThreshold, double highThreshold) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::Canny(asMat(source), target, lowThreshold, highThreshold, 3, true);
        return checkedInPlace(target, destination);
    });
}

int svi_fast_canny(SVImageView source, SVImageView destination, double lowThreshold, double highThreshold) {
    return guarded([&] {
        const cv::Mat gray = asMat(source);
        CV_Assert(gray.type() == CV_8UC1);
        cv::Mat edges = asMat(destination);
        CV_Assert(edges.type() == CV_8UC1 && edges.size() == gray.size());
        cv::Mat classes(gray.rows + 2, gray.cols + 2, CV_8U);
        classifyCanny(gray, classes, lowThreshold, highThreshold, nullptr);
        traceEdges<1, 2>(classes, edges);
        return 0;
    });
}

int svi_fast_canny_pair(SVImageView source, SVImageView destination, SVImageView maxima, double lowThreshold,
                        double highThreshold, double laterLow, double laterHigh) {
    return guarded([&] {
        const cv::Mat gray = asMat(source);
        CV_Assert(gray.type() == CV_8UC1);
        cv::Mat edges = asMat(destination), classes = asMat(maxima);
        CV_Assert(edges.type() == CV_8UC1 && edges.size() == gray.size());
        const double later[2] = {laterLow, laterHigh};
        classifyCanny(gray, classes, lowThreshold, highThreshold, later);
        traceEdges<1, 2>(classes, edges);
        return 0;
    });
}

int svi_trace_canny(SVImageView maxima, SVImageView destination) {
    return guarded([&] {
        const cv::Mat classes = asMat(maxima);
        cv::Mat edges = asMat(destination);
        CV_Assert(classes.type() == CV_8UC1 && edges.type() == CV_8UC1 && classes.rows == edges.rows + 2 &&
                  classes.cols == edges.cols + 2);
        traceEdges<4, 8>(classes, edges);
        return 0;
    });
}

int svi_adaptive_threshold(SVImageView source, SVImageView destination, int32_t blockSize, double offset, int inverted) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        const cv::Mat gray = asMat(source);
        if (gray.type() == CV_8UC1 && gray.cols >= 4 && blockSize % 2 == 1 && blockSize > 1 && blockSize <= maximumMeanBlock &&
            target.type() == CV_8UC1 && target.size() == gray.size() && target.data != gray.data) {
            thresholdByMean(gray, target, blockSize, offset, inverted != 0);
            return 0;
        }
        cv::adaptiveThreshold(gray, target, 255, cv::ADAPTIVE_THRESH_MEAN_C,
                              inverted ? cv::THRESH_BINARY_INV : cv::THRESH_BINARY, blockSize, offset);
        return checkedInPlace(target, destination);
    });
}

int svi_threshold(SVImageView source, SVImageView destination, double level, int inverted) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::threshold(asMat(source), target, level, 255, inverted ? cv::THRESH_BINARY_INV : cv::THRESH_BINARY);
        return checkedInPlace(target, destination);
    });
}

int svi_morphology(SVImageView source, SVImageView destination, SVMorphology operation, int32_t kernelSize) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_ELLIPSE, cv::Size(kernelSize, kernelSize));
        cv::morphologyEx(asMat(source), target, operation, kernel, cv::Point(-1, -1), 1, cv::BORDER_REPLICATE);
        return checkedInPlace(target, destination);
    });
}

int svi_divide(SVImageView numerator, SVImageView denominator, SVImageView destination, double scale) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::divide(asMat(numerator), asMat(denominator), target, scale);
        return checkedInPlace(target, destination);
    });
}

int svi_invert(SVImageView source, SVImageView destination) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::bitwise_not(asMat(source), target);
        return checkedInPlace(target, destination);
    });
}

int svi_profile_steps(SVImageView gray, const double *bases, int32_t baseCount, const double across[2],
                      const double along[2], const double *offsets, int32_t offsetCount, double *steps) {
#pragma clang fp contract(off)
    return guarded([&] {
        const cv::Mat image = asMat(gray);
        CV_Assert(image.type() == CV_8UC1 && !image.empty() && baseCount >= 0 && offsetCount >= 5);
        CV_Assert(image.step[0] <= size_t(INT32_MAX) / size_t(image.rows));
        static const bool hasAVX2 = __builtin_cpu_supports("avx2");
        const size_t size = (image.rows - 1) * image.step[0] + image.cols;
        const bool avx2 = hasAVX2 && size >= 4 && size + image.step[0] <= size_t(INT32_MAX);
        std::vector<double> levels(static_cast<size_t>(offsetCount));
        const int stepCount = offsetCount - 4;
        // How far below its base a profile reads, at most. Where that stays three rows above the last, each
        // four bytes gathered from a row and from the row below lie inside the image, so need no clamping.
        const auto [nearest, farthest] = std::minmax_element(offsets, offsets + offsetCount);
        const double below = std::max(across[1] * *nearest, across[1] * *farthest) + std::abs(along[1]) + 1;
        for (int32_t base = 0; base < baseCount; ++base) {
            const double x = bases[2 * base], y = bases[2 * base + 1];
            if (avx2 && image.step[0] >= 4 && y + below < image.rows - 3) {
                profilesAVX2<false>(image, x, y, across, along, offsets, offsetCount, levels.data());
            } else if (avx2) {
                profilesAVX2<true>(image, x, y, across, along, offsets, offsetCount, levels.data());
            } else {
                for (int32_t index = 0; index < offsetCount; ++index) {
                    const double px = x + across[0] * offsets[index], py = y + across[1] * offsets[index];
                    levels[index] = (intensity(image, px - along[0], py - along[1]) + intensity(image, px, py) +
                                     intensity(image, px + along[0], py + along[1])) /
                                    3;
                }
            }
            double *out = steps + size_t(base) * stepCount;
            for (int index = 0; index < stepCount; ++index) out[index] = levels[index + 4] - levels[index];
        }
        return 0;
    });
}

int svi_convex_hull(const int32_t *xy, int32_t count, int32_t *hull, int32_t *hullCount) {
    return guarded([&] {
        std::vector<cv::Point> result;
        cv::convexHull(points(xy, count), result, true);
        write(result, hull, hullCount);
        return 0;
    });
}

int svi_fill_convex_polygon(SVImageView image, const double *xy, int32_t count, const double value[4]) {
    return guarded([&] {
        std::vector<cv::Point> corners(static_cast<size_t>(count));
        for (int32_t index = 0; index < count; ++index) {
            corners[index] = cv::Point(cvRound(xy[2 * index]), cvRound(xy[2 * index + 1]));
        }
        cv::Mat target = asMat(image);
        cv::fillConvexPoly(target, corners, scalar(value));
        return 0;
    });
}

int svi_perspective_transform(const double source[8], const double destination[8], double matrix[9]) {
    return guarded([&] {
        cv::Point2f from[4], to[4];
        for (int index = 0; index < 4; ++index) {
            from[index] = cv::Point2f(static_cast<float>(source[2 * index]), static_cast<float>(source[2 * index + 1]));
            to[index] = cv::Point2f(static_cast<float>(destination[2 * index]),
                                    static_cast<float>(destination[2 * index + 1]));
        }
        cv::getPerspectiveTransform(from, to).copyTo(doubles(matrix, 3, 3));
        return 0;
    });
}

int svi_warp_perspective(SVImageView source, SVImageView destination, const double matrix[9],
                        SVInterpolation interpolation, const double border[4]) {
    return guarded([&] {
        cv::Mat target = asMat(destination);
        cv::warpPerspective(asMat(source), target, doubles(matrix, 3, 3), target.size(), interpolation,
                            cv::BORDER_CONSTANT, scalar(border));
        return checkedInPlace(target, destination);
    });
}

}  // extern "C"
