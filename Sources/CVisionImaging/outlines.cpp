// Outlines of binary maps (sv_find_contours) and their Douglas–Peucker simplification (sv_approximate_polygon),
// without OpenCV: our own border following, written from S. Suzuki and K. Abe, "Topological structural analysis
// of digitized binary images by border following", Computer Vision, Graphics, and Image Processing 30(1), 1985,
// in the variant OpenCV 4.6's cv::findContours runs for its outermost-only and all-outlines modes with simple
// chain approximation; and the simplification in the steps cv::approxPolyDP takes for a closed polygon of whole
// points.
//
// Both give OpenCV's output exactly: the same outlines in the same order (the last one found first), each from
// the same start with the same points, and the same polygons. OpenCV's steps are kept where they decide that
// output (the raster scan and its last met border, which pixels a trace marks and how, where a trace starts and
// stops; the three passes for the farthest point and the slices' order); what is left out is its storage:
// OpenCV copies the map with a border and then thresholds it, traces into linked blocks of memory, works out
// each outline's bounds, links the outlines into a tree and copies them out again, and its simplification
// converts every point to a double, wraps every index with a branch and copies its result twice. Here the map
// is copied once into one with a border, every outline is traced straight into one array as offsets in the
// map (the probes round a pixel unrolled), and the simplification reads whole coordinates, finds farthest
// points eight at a time (AVX2, where every coordinate is below 2^14) and writes into the caller's array.
#include "CVisionImaging.h"
#include "../CVisionShim/ShimSupport.hpp"

#include <immintrin.h>

#include <cmath>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

using namespace shim;

namespace {

/// A pixel's mark in the traced map: not part of any region, part of one and on no border traced yet, on a
/// traced border (as OpenCV marks it: 2), and on a traced border with background to its right (2 | 0x80).
constexpr int8_t background = 0, unvisited = 1, traced = 2, tracedRightBound = int8_t(2 | 0x80);

/// The outlines of a binary map, traced as Suzuki and Abe's border following does on a copy of the map that
/// has a border of background pixels.
class BorderFollower {
public:
    /// Copies `view` (8-bit, one channel) into the traced map: 1 where it is not zero, 0 elsewhere.
    explicit BorderFollower(const SVImageView &view)
        : width(view.width), height(view.height),
          // Room for a 16-byte read from any pixel of a row, and one more row past the last.
          stride((view.width + 2 + 16 + 15) / 16 * 16), map(new int8_t[size_t(stride) * size_t(view.height + 3)]) {
        if (offsets == nullptr) throw std::bad_alloc();
        std::memset(map.get(), 0, size_t(stride));
        std::memset(map.get() + size_t(stride) * size_t(height + 1), 0, size_t(stride) * 2);
        const __m128i zero = _mm_setzero_si128(), one = _mm_set1_epi8(1);
        for (int row = 0; row < height; ++row) {
            const uint8_t *source = view.data + size_t(row) * size_t(view.bytesPerRow);
            int8_t *target = map.get() + size_t(stride) * size_t(row + 1);
            target[0] = background;
            int column = 0;
            for (; column + 16 <= width; column += 16) {
                const __m128i pixels = _mm_loadu_si128(reinterpret_cast<const __m128i *>(source + column));
                const __m128i marks = _mm_andnot_si128(_mm_cmpeq_epi8(pixels, zero), one);
                _mm_storeu_si128(reinterpret_cast<__m128i *>(target + 1 + column), marks);
            }
            if (width >= 16 && column < width) {
                // The last 16 pixels again, overlapping the ones done.
                column = width - 16;
                const __m128i pixels = _mm_loadu_si128(reinterpret_cast<const __m128i *>(source + column));
                const __m128i marks = _mm_andnot_si128(_mm_cmpeq_epi8(pixels, zero), one);
                _mm_storeu_si128(reinterpret_cast<__m128i *>(target + 1 + column), marks);
                column = width;
            }
            for (; column < width; ++column) target[1 + column] = source[column] != 0 ? unvisited : background;
            std::memset(target + 1 + width, 0, size_t(stride - width - 1));
        }
    }

    /// Traces every outline, or with `outerOnly` the outermost ones only, in OpenCV's raster order.
    void trace(bool outerOnly) {
        for (int row = 1; row <= height; ++row) {
            int8_t *const line = map.get() + size_t(stride) * size_t(row);
            // The column of the last border pixel met on this row (OpenCV's lnbd), and the last value read.
            int lastBorder = 0;
            int previous = background;
            int column = 1;
            for (;;) {
                column = nextChange(line, column, int8_t(previous));
                if (column > width) break;
                const int value = line[column];
                bool isHole;
                if (value == unvisited) {
                    // An outer border starts where background meets a region pixel not yet traced.
                    isHole = false;
                    if (previous != background || (outerOnly && line[lastBorder] > background)) {
                        previous = value;
                        ++column;
                        continue;
                    }
                } else if (value == background) {
                    // A hole's border starts where a region pixel not on the right of a traced border meets background.
                    isHole = true;
                    if (previous < unvisited || outerOnly) {
                        previous = value;
                        ++column;
                        continue;
                    }
                } else {
                    // A traced border.
                    previous = value;
                    lastBorder = column++;
                    continue;
                }
                lastBorder = column - int(isHole);
                follow(line + column - int(isHole), isHole);
                previous = line[column];
                ++column;
            }
        }
    }

    /// Writes the outlines, the last traced first as OpenCV lists them, as x, y pairs in the map's coordinates
    /// into `points` and their point counts into `lengths`; both are allocated with malloc.
    bool write(int32_t **points, int32_t **lengths, int32_t *count) const {
        const size_t outlines = starts.size();
        *points = static_cast<int32_t *>(std::malloc(sizeof(int32_t) * (2 * used + 1)));
        *lengths = static_cast<int32_t *>(std::malloc(sizeof(int32_t) * (outlines + 1)));
        if (*points == nullptr || *lengths == nullptr) {
            std::free(*points);
            std::free(*lengths);
            *points = *lengths = nullptr;
            return false;
        }
        int32_t *cursor = *points;
        for (size_t index = 0; index < outlines; ++index) {
            const size_t outline = outlines - 1 - index;
            const size_t first = starts[outline], end = outline + 1 < outlines ? starts[outline + 1] : used;
            for (size_t point = first; point < end; ++point) {
                const uint32_t offset = offsets[point];
                const uint32_t row = offset / uint32_t(stride), column = offset - row * uint32_t(stride);
                *cursor++ = int32_t(column) - 1;
                *cursor++ = int32_t(row) - 1;
            }
            (*lengths)[index] = int32_t(end - first);
        }
        *count = int32_t(outlines);
        return true;
    }

private:
    /// The first column from `column` on (at most one past the image) whose mark is not `value`, read 16 at a
    /// time past the first two.
    int nextChange(const int8_t *line, int column, int8_t value) const {
        // Most runs of an edge map are a pixel or two long.
        if (line[column] != value) return column;
        if (line[column + 1] != value) return column + 1;
        column += 2;
        const __m128i repeated = _mm_set1_epi8(value);
        for (; column <= width; column += 16) {
            const __m128i marks = _mm_loadu_si128(reinterpret_cast<const __m128i *>(line + column));
            const unsigned differing = ~unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(marks, repeated))) & 0xFFFFu;
            if (differing != 0) return column + __builtin_ctz(differing);
        }
        return width + 1;
    }

    /// Follows the border that starts at `start`, the outer border of its region or (`isHole`) the border of
    /// the hole to its right, marking its pixels and keeping the pixels where its direction turns.
    ///
    /// Directions are numbered counter-clockwise from the right: 0 right, 2 up, 4 left, 6 down. From each border
    /// pixel the next is the first region pixel met turning counter-clockwise from the direction back to the
    /// previous one; the border ends when it leaves its start towards the pixel it first went to.
    void follow(int8_t *start, bool isHole) {
        const ptrdiff_t s = stride;
        const ptrdiff_t step[8] = {1, 1 - s, -s, -s - 1, -1, s - 1, s, s + 1};
        starts.push_back(uint32_t(used));
        const int8_t *const origin = map.get();
        // The points are written through locals: the marks are bytes, which could alias the vector's own fields.
        uint32_t *out = offsets.get() + used, *limit = offsets.get() + capacity;
        const auto keep = [&](const int8_t *pixel) {
            if (out == limit) {
                const size_t written = size_t(out - offsets.get());
                grow();
                out = offsets.get() + written;
                limit = offsets.get() + capacity;
            }
            *out++ = uint32_t(pixel - origin);
        };
        // The first region pixel met turning clockwise from the background pixel the scan came from.
        const int from = isHole ? 0 : 4;
        int direction = from;
        int8_t *first = nullptr;
        do {
            direction = (direction - 1) & 7;
            first = start + step[direction];
        } while (*first == background && direction != from);
        if (direction == from) {
            // A single pixel.
            *start = tracedRightBound;
            keep(start);
            used = size_t(out - offsets.get());
            return;
        }
        int8_t *current = start, *next = nullptr;
        int kept = direction ^ 4;
        // The probes, unrolled: probe k looks in direction k mod 8, and the walk round a pixel from the direction
        // back to the previous one, d, runs from probe d + 1 on; the last probe is taken without a look, as
        // OpenCV's loop ends on it (the pixel behind is never background). Probe k found the next pixel:
        // from k = 9 on the walk passed the pixel to the right, which is background, and the next walk starts
        // from the way back, k + 4 mod 8.
        switch (direction) {
        case 0: goto probe1;
        case 1: goto probe2;
        case 2: goto probe3;
        case 3: goto probe4;
        case 4: goto probe5;
        case 5: goto probe6;
        case 6: goto probe7;
        default: goto probe8;
        }
#define SV_LOOK(k)                     \
    next = current + step[(k) & 7];    \
    if (*next != background) goto found##k;
#define SV_PROBE(k) \
    probe##k : SV_LOOK(k)
#define SV_FOUND(k, isRightBound, following)                                     \
    found##k : if (isRightBound) *current = tracedRightBound;                   \
    else if (*current == unvisited) *current = traced;                          \
    if (kept != (k & 7)) {                                                      \
        keep(current);                                                          \
        kept = k & 7;                                                           \
    }                                                                           \
    if (next == start && current == first) goto finished;                      \
    current = next;                                                             \
    goto probe##following;
        SV_PROBE(1) SV_PROBE(2) SV_PROBE(3) SV_PROBE(4) SV_PROBE(5) SV_PROBE(6) SV_PROBE(7) SV_PROBE(8)
        SV_LOOK(9) SV_LOOK(10) SV_LOOK(11) SV_LOOK(12) SV_LOOK(13) SV_LOOK(14)
        next = current + step[7];
        goto found15;
        SV_FOUND(1, false, 6)
        SV_FOUND(2, false, 7)
        SV_FOUND(3, false, 8)
        SV_FOUND(4, false, 1)
        SV_FOUND(5, false, 2)
        SV_FOUND(6, false, 3)
        SV_FOUND(7, false, 4)
        SV_FOUND(8, false, 5)
        SV_FOUND(9, true, 6)
        SV_FOUND(10, true, 7)
        SV_FOUND(11, true, 8)
        SV_FOUND(12, true, 1)
        SV_FOUND(13, true, 2)
        SV_FOUND(14, true, 3)
        SV_FOUND(15, true, 4)
    finished:
        used = size_t(out - offsets.get());
#undef SV_PROBE
#undef SV_LOOK
#undef SV_FOUND
    }

    const int width, height, stride;
    const std::unique_ptr<int8_t[]> map;
    /// Doubles the room for points.
    void grow() {
        uint32_t *larger = static_cast<uint32_t *>(std::realloc(offsets.get(), sizeof(uint32_t) * capacity * 2));
        if (larger == nullptr) throw std::bad_alloc();
        offsets.release();
        offsets.reset(larger);
        capacity *= 2;
    }

    /// Every outline's points as offsets in `map`, one outline after another: `used` of room for `capacity`.
    size_t capacity = 1 << 14, used = 0;
    std::unique_ptr<uint32_t[], decltype(&std::free)> offsets{static_cast<uint32_t *>(std::malloc(sizeof(uint32_t) << 14)), &std::free};
    /// Where each outline starts in `offsets`.
    std::vector<uint32_t> starts;
};

/// How a point's measure is taken in ``farthestAVX2``: its squared distance from the origin point, or how far
/// it lies across the chord from the origin (the cross product with the chord, without its sign).
enum class Measure { squaredDistance, across };

/// Points whose coordinates are all in [0, `wholeLimit`) keep every measure below 2^29, so in 32 bits.
constexpr int32_t wholeLimit = 1 << 14;

/// Over points `first` ..< `end` of `xy`, in order: where the measure from (`x0`, `y0`) (along `dx`, `dy`
/// for the chord) first exceeds `largest`, and then the last such, as a scalar loop finds it (each point
/// that exceeds the largest so far becomes the largest). Eight points at a time: each lane keeps the first
/// of its largest, and the first of the lanes that reach the overall largest is the first point that does.
template <Measure kind>
__attribute__((target("avx2"))) void farthestAVX2(const int32_t *xy, int32_t first, int32_t end, int32_t x0, int32_t y0,
                                                  int32_t dx, int32_t dy, int32_t &largest, int32_t &at) {
    const __m256i origin = _mm256_setr_epi32(x0, y0, x0, y0, x0, y0, x0, y0);
    const __m256i weights = _mm256_setr_epi32(-dy, dx, -dy, dx, -dy, dx, -dy, dx);
    // hadd of two vectors of four points each gives, per 128-bit half, two points of the first and two of the second.
    __m256i index = _mm256_add_epi32(_mm256_set1_epi32(first), _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7));
    const __m256i eight = _mm256_set1_epi32(8);
    __m256i best = _mm256_set1_epi32(largest), bestAt = _mm256_set1_epi32(-1);
    int32_t point = first;
    for (; point + 8 <= end; point += 8) {
        const __m256i low = _mm256_sub_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(xy + 2 * point)), origin);
        const __m256i high = _mm256_sub_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(xy + 2 * point + 8)), origin);
        __m256i measure;
        if constexpr (kind == Measure::across) {
            measure = _mm256_abs_epi32(_mm256_hadd_epi32(_mm256_mullo_epi32(low, weights), _mm256_mullo_epi32(high, weights)));
        } else {
            measure = _mm256_hadd_epi32(_mm256_mullo_epi32(low, low), _mm256_mullo_epi32(high, high));
        }
        const __m256i greater = _mm256_cmpgt_epi32(measure, best);
        best = _mm256_max_epi32(best, measure);
        bestAt = _mm256_blendv_epi8(bestAt, index, greater);
        index = _mm256_add_epi32(index, eight);
    }
    if (point == first) {
        // Fewer than eight points: the lanes saw none.
        for (; point < end; ++point) {
            const int32_t px = xy[2 * point] - x0, py = xy[2 * point + 1] - y0;
            const int32_t measure = kind == Measure::across ? std::abs(py * dx - px * dy) : px * px + py * py;
            if (measure > largest) {
                largest = measure;
                at = point;
            }
        }
        return;
    }
    alignas(32) int32_t lanes[8], places[8];
    _mm256_store_si256(reinterpret_cast<__m256i *>(lanes), best);
    _mm256_store_si256(reinterpret_cast<__m256i *>(places), bestAt);
    int32_t top = largest, topAt = at;
    for (int lane = 0; lane < 8; ++lane) {
        if (places[lane] < 0) continue;
        if (lanes[lane] > top || (lanes[lane] == top && places[lane] < topAt)) {
            top = lanes[lane];
            topAt = places[lane];
        }
    }
    largest = top;
    at = topAt;
    for (; point < end; ++point) {
        const int32_t px = xy[2 * point] - x0, py = xy[2 * point + 1] - y0;
        int32_t measure;
        if constexpr (kind == Measure::across) {
            measure = std::abs(py * dx - px * dy);
        } else {
            measure = px * px + py * py;
        }
        if (measure > largest) {
            largest = measure;
            at = point;
        }
    }
}

/// Whether every coordinate of `xy` lies in [0, ``wholeLimit``).
bool isSmall(const int32_t *xy, int32_t count) {
    uint32_t any = 0;
    for (int32_t index = 0; index < 2 * count; ++index) any |= uint32_t(xy[index]) >= uint32_t(wholeLimit);
    return any == 0;
}

/// Douglas–Peucker simplification of the closed polygon `xy` (`count` points) to within `epsilon`, in
/// cv::approxPolyDP's steps: the start found by three passes for the farthest point from the last, the two
/// halves between them split at their farthest points (the first found of equals) until every point of a
/// slice lies within `epsilon` of its chord, then points on nearly straight runs dropped. Distances are
/// compared as the whole numbers they are; the tolerance tests are the same double expressions as OpenCV's.
int32_t simplify(const int32_t *xy, int32_t count, double epsilon, int32_t *output) {
#pragma clang fp contract(off)
    struct Slice {
        int32_t start, end;
    };
    const double tolerance = epsilon * epsilon;
    int32_t written = 0;
    // 1. The farthest point from the start, three times over, each pass from the last one's farthest point.
    static const bool hasAVX2 = __builtin_cpu_supports("avx2");
    const bool isFast = hasAVX2 && isSmall(xy, count);
    int32_t start = 0, farthest = 0;
    bool isWithin = false;
    for (int pass = 0; pass < 3; ++pass) {
        start = (start + farthest) % count;
        const int64_t x0 = xy[2 * start], y0 = xy[2 * start + 1];
        int64_t longest = 0;
        if (isFast) {
            int32_t largest = 0, at = -1;
            farthestAVX2<Measure::squaredDistance>(xy, start + 1, count, int32_t(x0), int32_t(y0), 0, 0, largest, at);
            farthestAVX2<Measure::squaredDistance>(xy, 0, start, int32_t(x0), int32_t(y0), 0, 0, largest, at);
            if (at >= 0) farthest = at > start ? at - start : at + count - start;
            longest = largest;
        } else {
            for (int32_t step = 1; step < count; ++step) {
                int32_t index = start + step;
                if (index >= count) index -= count;
                const int64_t dx = xy[2 * index] - x0, dy = xy[2 * index + 1] - y0;
                const int64_t distance = dx * dx + dy * dy;
                if (distance > longest) {
                    longest = distance;
                    farthest = step;
                }
            }
        }
        isWithin = double(longest) <= tolerance;
    }
    std::vector<Slice> stack;
    if (isWithin) {
        output[written++] = xy[2 * start];
        output[written++] = xy[2 * start + 1];
    } else {
        const int32_t end = (farthest + start) % count;
        stack.reserve(32);
        stack.push_back({end, start});
        stack.push_back({start, end});
    }
    // 2. Each slice is kept as its start or split at its farthest point from the chord.
    while (!stack.empty()) {
        const Slice slice = stack.back();
        stack.pop_back();
        const int64_t x0 = xy[2 * slice.start], y0 = xy[2 * slice.start + 1];
        int32_t first = slice.start + 1 == count ? 0 : slice.start + 1;
        bool keep = true;
        int32_t split = 0;
        if (first != slice.end) {
            const int64_t dx = xy[2 * slice.end] - x0, dy = xy[2 * slice.end + 1] - y0;
            if (dx == 0 && dy == 0) {
                lastError = "a slice of the polygon starts and ends at the same point";
                return -1;
            }
            int64_t largest = 0;
            // The points strictly between the slice's ends, in order, in at most two runs.
            const int32_t stop = first < slice.end ? slice.end : count;
            if (isFast) {
                int32_t most = 0, at = -1;
                farthestAVX2<Measure::across>(xy, first, stop, int32_t(x0), int32_t(y0), int32_t(dx), int32_t(dy), most, at);
                if (stop != slice.end) {
                    farthestAVX2<Measure::across>(xy, 0, slice.end, int32_t(x0), int32_t(y0), int32_t(dx), int32_t(dy), most, at);
                }
                largest = most;
                if (at >= 0) split = at;
            }
            for (int pass = 0; pass < 2 && !isFast; ++pass) {
                const int32_t limit = pass == 0 ? stop : slice.end;
                for (int32_t index = first; index < limit; ++index) {
                    const int64_t cross = (xy[2 * index + 1] - y0) * dx - (xy[2 * index] - x0) * dy;
                    const int64_t distance = cross < 0 ? -cross : cross;
                    if (distance > largest) {
                        largest = distance;
                        split = index;
                    }
                }
                if (stop == slice.end) break;
                first = 0;
            }
            const double across = double(largest), ddx = double(dx), ddy = double(dy);
            keep = across * across <= tolerance * (ddx * ddx + ddy * ddy);
        }
        if (keep) {
            output[written++] = int32_t(x0);
            output[written++] = int32_t(y0);
        } else {
            stack.push_back({split, slice.end});
            stack.push_back({slice.start, split});
        }
    }
    // 3. A point is dropped where it lies within half the tolerance of the line from the point before it to
    // the one after, the line is neither level nor upright, and the point lies between them along it.
    int32_t kept = written / 2;
    const int32_t total = kept;
    auto at = [&](int32_t index, int32_t &x, int32_t &y) {
        x = output[2 * index];
        y = output[2 * index + 1];
    };
    int32_t read = total - 1, target;
    int32_t sx, sy, px, py, ex, ey;
    at(read, sx, sy);
    read = 0;
    target = read;
    at(read, px, py);
    read = read + 1 >= total ? 0 : read + 1;
    for (int32_t index = 0; index < total && kept > 2; ++index) {
        at(read, ex, ey);
        read = read + 1 >= total ? 0 : read + 1;
        const double dx = ex - sx, dy = ey - sy;
        const double distance = std::fabs((px - sx) * dy - (py - sy) * dx);
        const int32_t along = (px - sx) * (ex - px) + (py - sy) * (ey - py);
        if (distance * distance <= 0.5 * tolerance * (dx * dx + dy * dy) && dx != 0 && dy != 0 && along >= 0) {
            --kept;
            output[2 * target] = sx = ex;
            output[2 * target + 1] = sy = ey;
            target = target + 1 >= total ? 0 : target + 1;
            at(read, px, py);
            read = read + 1 >= total ? 0 : read + 1;
            ++index;
            continue;
        }
        output[2 * target] = sx = px;
        output[2 * target + 1] = sy = py;
        target = target + 1 >= total ? 0 : target + 1;
        px = ex;
        py = ey;
    }
    return kept;
}

}  // namespace

extern "C" {

int svi_find_contours(SVImageView binary, int outerOnly, int32_t **points, int32_t **lengths, int32_t *count) {
    return guarded([&] {
        if (binary.depth != SV_DEPTH_U8 || binary.channels != 1 || binary.width < 0 || binary.height < 0) {
            lastError = "contours need an 8-bit binary image (one channel)";
            return -1;
        }
        if ((uint64_t(binary.width) + 34) * (uint64_t(binary.height) + 3) > UINT32_MAX) {
            lastError = "the image is too large to trace";
            return -1;
        }
        BorderFollower follower(binary);
        follower.trace(outerOnly != 0);
        if (!follower.write(points, lengths, count)) {
            lastError = "out of memory";
            return -1;
        }
        return 0;
    });
}

int svi_approximate_polygon(const int32_t *xy, int32_t count, double epsilon, int32_t *output, int32_t *outputCount) {
    return guarded([&] {
        if (!(epsilon >= 0 && epsilon < 1e30)) {
            lastError = "the tolerance must be at least 0 and finite";
            return -1;
        }
        if (count < 0) {
            lastError = "a polygon has no fewer than 0 points";
            return -1;
        }
        *outputCount = 0;
        if (count == 0) return 0;
        const int32_t written = simplify(xy, count, epsilon, output);
        if (written < 0) return -1;
        *outputCount = written;
        return 0;
    });
}

}  // extern "C"
