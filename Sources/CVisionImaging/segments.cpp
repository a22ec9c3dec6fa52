// Straight line segments of a gray image (sv_line_segments): our own line segment detector, written from
// R. Grompone von Gioi, J. Jakubowicz, J.-M. Morel and G. Randall, "LSD: a Line Segment Detector", Image
// Processing On Line 2 (2012), with the settings of OpenCV's createLineSegmentDetector() defaults, which this
// library called before: the image reduced to 0.8 after a Gaussian blur of σ = 0.6 / 0.8, a gradient quantised
// to 2 grey levels, an angle tolerance of 22.5°, a density of at least 0.7 and 1024 bins of gradient magnitude,
// with the standard refinement (no count of false alarms is tested, as OpenCV's documents of that mode say).
//
// The paper's pseudo-order is kept: the pixels whose gradient is defined are dealt into the bins in one pass
// and tried as seeds from the strongest bin down, in raster order within a bin. OpenCV's detector sorts every
// pixel of the reduced image by its bin with std::sort instead, half of its time on a 288×512 image, and the
// order that leaves within a bin follows from the sort's partitioning. Visited in that same order, our segments
// are OpenCV 4.6's bit for bit (all 61,884 on 134 photos reduced to 640 pixels: the rectangle DEV and TEST
// frames, the sample photos and the bench's scenes); in raster order within a bin 96.4 % are, and 97.4 % are
// within 1 px, in a third of the instructions (tests: LineSegmentDetectorTests).
#include "CVisionImaging.h"
#include "OpenCVSupport.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

using namespace shim;

namespace {

/// A rectangle around a region of aligned pixels: its axis from (x1, y1) to (x2, y2) and its width.
struct SegmentRectangle {
    double x1, y1, x2, y2, width;

    double length() const { return std::sqrt((x2 - x1) * (x2 - x1) + (y2 - y1) * (y2 - y1)); }
};

/// A pixel of a growing region: its place in the reduced image and its cell in the padded grids.
struct RegionPixel {
    int32_t x, y, cell;
};

/// The distance between two pixels.
double distance(const RegionPixel &a, const RegionPixel &b) {
    const int dx = a.x - b.x, dy = a.y - b.y;
    return std::sqrt(double(dx * dx + dy * dy));
}

/// Four bytes from `bytes`, which need not be aligned.
uint32_t load32(const uint8_t *bytes) {
    uint32_t value;
    std::memcpy(&value, bytes, sizeof value);
    return value;
}

/// Which of the three used flags (0 or 1) from `flags` on are 0, as the three lowest bits.
uint32_t freeCells(const uint8_t *flags) {
    // The flags of the three bytes are bits 0, 8 and 16; the product moves them to bits 16, 17 and 18 (and
    // the other partial products, none of them overlapping, elsewhere).
    return ((~load32(flags) & 0x010101u) * 0x10204u) >> 16 & 7u;
}

/// `a − b` brought into (−π, π].
double signedAngleDifference(double a, double b) {
    a -= b;
    while (a <= -M_PI) a += 2 * M_PI;
    while (a > M_PI) a -= 2 * M_PI;
    return a;
}

/// One detection: the gradient of the reduced image, the seeds in pseudo-order, and the regions grown from them.
///
/// The grids (angle, magnitude, used) have a border of one cell on every side, so that a region's neighbours
/// need no bounds check. A cell without a defined gradient (the border's, the last row and column of the image,
/// whose gradient would take the pixel below and to the right, and the flat ones) counts as used from the start:
/// it never joins a region, and its angle and magnitude are never read.
class SegmentDetector {
  public:
    /// A detection on `gray`, 8-bit with one channel.
    explicit SegmentDetector(const cv::Mat &gray);

    /// The segments, x1, y1, x2, y2 each, in the coordinates of the image given.
    std::vector<float> segments();

  private:
    static constexpr double scale = 0.8;
    static constexpr double sigmaScale = 0.6;
    static constexpr double quantization = 2;
    static constexpr double toleranceDegrees = 22.5;
    static constexpr double minimumDensity = 0.7;
    static constexpr int binCount = 1024;

    int width = 0, height = 0, stride = 0;
    /// The angle tolerance, in radians.
    double precision = 0;
    std::unique_ptr<double[]> angles, magnitudes;
    /// The cosine and sine of each defined cell's angle, in single precision.
    std::unique_ptr<float[]> cosines, sines;
    std::vector<uint8_t> used;
    /// The cells with a defined gradient, strongest bin first.
    std::vector<int32_t> seeds;
    /// The cell offsets of a cell's 3 × 3 neighbourhood, row by row (the fifth is the cell itself).
    std::array<int32_t, 9> neighbours{};
    std::vector<RegionPixel> region;
    double regionAngle = 0;

    RegionPixel pixel(int32_t cell) const { return {cell % stride - 1, cell / stride - 1, cell}; }
    /// Whether a pixel of level-line angle `angle` lies within `tolerance` of the region's angle.
    bool isAligned(double angle, double tolerance) const {
        double difference = std::fabs(regionAngle - angle);
        if (difference > 1.5 * M_PI) difference = std::fabs(difference - 2 * M_PI);
        return difference <= tolerance;
    }
    double density(const SegmentRectangle &rectangle) const {
        return double(region.size()) / (rectangle.length() * rectangle.width);
    }
    void grow(int32_t seed, double tolerance);
    SegmentRectangle enclosingRectangle() const;
    bool refine(SegmentRectangle &rectangle);
    bool reduceRadius(SegmentRectangle &rectangle);
};

SegmentDetector::SegmentDetector(const cv::Mat &gray) {
    precision = M_PI * toleranceDegrees / 180;
    if (gray.empty()) return;
    const double sigma = sigmaScale / scale;
    // The kernel reaches out to where the Gaussian falls below 10⁻³ of its peak.
    const int half = int(std::ceil(sigma * std::sqrt(2 * 3 * std::log(10.0))));
    cv::Mat blurred, reduced;
    cv::GaussianBlur(gray, blurred, cv::Size(2 * half + 1, 2 * half + 1), sigma);
    cv::resize(blurred, reduced, cv::Size(), scale, scale, cv::INTER_LINEAR_EXACT);
    width = reduced.cols;
    height = reduced.rows;
    stride = width + 2;
    const size_t cells = size_t(stride) * size_t(height + 2);
    angles.reset(new double[cells]);
    magnitudes.reset(new double[cells]);
    cosines.reset(new float[cells]);
    sines.reset(new float[cells]);
    used.assign(cells, 1);
    neighbours = {-stride - 1, -stride, -stride + 1, -1, 0, 1, stride - 1, stride, stride + 1};

    // A gradient at most `threshold` is within what quantising to whole grey levels can make of a flat patch
    // at this tolerance; `cutoff` is the largest sum of squared differences whose magnitude is that small.
    const double threshold = quantization / std::sin(precision);
    int cutoff = int(4 * threshold * threshold);
    while (std::sqrt((cutoff + 1) / 4.0) <= threshold) ++cutoff;
    while (cutoff >= 0 && std::sqrt(cutoff / 4.0) > threshold) --cutoff;
    double largest = 0;
    std::vector<int32_t> defined;
    const size_t columns = static_cast<size_t>(width);
    std::vector<int32_t> gradientX(columns), gradientY(columns), squares(columns);
    for (int y = 0; y + 1 < height; ++y) {
        const uint8_t *row = reduced.ptr<uint8_t>(y), *below = reduced.ptr<uint8_t>(y + 1);
        const int32_t rowCell = (y + 1) * stride + 1;
        // The 2×2 differences, whose gradient belongs to the point between the four pixels (a row at a time,
        // which the compiler vectorises, before the few strong enough are looked at one by one).
        for (int x = 0; x + 1 < width; ++x) {
            const int diagonal = below[x + 1] - row[x], antidiagonal = row[x + 1] - below[x];
            gradientX[size_t(x)] = diagonal + antidiagonal;
            gradientY[size_t(x)] = diagonal - antidiagonal;
            squares[size_t(x)] = gradientX[size_t(x)] * gradientX[size_t(x)] + gradientY[size_t(x)] * gradientY[size_t(x)];
        }
        for (int x = 0; x + 1 < width; ++x) {
            const int squared = squares[size_t(x)];
            if (squared <= cutoff) continue;
            const int gx = gradientX[size_t(x)], gy = gradientY[size_t(x)];
            const int32_t cell = rowCell + x;
            used[size_t(cell)] = 0;
            const double magnitude = std::sqrt(squared / 4.0);
            magnitudes[size_t(cell)] = magnitude;
            // The level line's angle (across the gradient), from OpenCV's fast arctangent in degrees.
            const double angle = cv::fastAtan2(float(gx), float(-gy)) * (M_PI / 180);
            angles[size_t(cell)] = angle;
            cosines[size_t(cell)] = std::cos(float(angle));
            sines[size_t(cell)] = std::sin(float(angle));
            largest = std::max(largest, magnitude);
            defined.push_back(cell);
        }
    }

    // The pseudo-order: a counting sort on the bin of each defined magnitude, the strongest bin first.
    const double binsPerLevel = largest > 0 ? (binCount - 1) / largest : 0;
    std::vector<uint16_t> bins(defined.size());
    std::vector<int32_t> starts(binCount + 1, 0);
    for (size_t index = 0; index < defined.size(); ++index) {
        const int bin = std::min(binCount - 1, int(magnitudes[size_t(defined[index])] * binsPerLevel));
        bins[index] = uint16_t(binCount - 1 - bin);
        ++starts[size_t(bins[index]) + 1];
    }
    for (int bin = 0; bin < binCount; ++bin) starts[size_t(bin) + 1] += starts[size_t(bin)];
    seeds.resize(defined.size());
    for (size_t index = 0; index < defined.size(); ++index) seeds[size_t(starts[bins[index]]++)] = defined[index];
}

void SegmentDetector::grow(int32_t seed, double tolerance) {
    region.clear();
    region.push_back(pixel(seed));
    used[size_t(seed)] = 1;
    regionAngle = angles[size_t(seed)];
    // The sums of the members' unit vectors and the region's angle, in single precision as OpenCV's detector
    // keeps them (degrees × π / 180, in that order), so that regions grow as there.
    float sumX = float(std::cos(regionAngle)), sumY = float(std::sin(regionAngle));
    for (size_t member = 0; member < region.size(); ++member) {
        const RegionPixel centre = region[member];
        // The free cells of the neighbourhood as nine bits, row by row (used flags are 0 or 1).
        const uint8_t *middle = used.data() + centre.cell;
        const uint32_t free = freeCells(middle - stride - 1) | freeCells(middle - 1) << 3 | freeCells(middle + stride - 1) << 6;
        for (uint32_t left = free & ~(1u << 4); left != 0; left &= left - 1) {
            const int position = __builtin_ctz(left);
            const int32_t cell = centre.cell + neighbours[size_t(position)];
            if (!isAligned(angles[size_t(cell)], tolerance)) continue;
            used[size_t(cell)] = 1;
            region.push_back({centre.x + position % 3 - 1, centre.y + position / 3 - 1, cell});
            sumX += cosines[size_t(cell)];
            sumY += sines[size_t(cell)];
            regionAngle = cv::fastAtan2(sumY, sumX) * float(M_PI) / 180.0f;
        }
    }
}

SegmentRectangle SegmentDetector::enclosingRectangle() const {
    // The centre of mass, weighting each pixel by its gradient magnitude.
    double centreX = 0, centreY = 0, total = 0;
    for (const RegionPixel &member : region) {
        const double weight = magnitudes[size_t(member.cell)];
        centreX += member.x * weight;
        centreY += member.y * weight;
        total += weight;
    }
    centreX /= total;
    centreY /= total;
    // The axis: the direction of least inertia.
    double inertiaXX = 0, inertiaYY = 0, inertiaXY = 0;
    for (const RegionPixel &member : region) {
        const double weight = magnitudes[size_t(member.cell)], dx = member.x - centreX, dy = member.y - centreY;
        inertiaXX += dy * dy * weight;
        inertiaYY += dx * dx * weight;
        inertiaXY -= dx * dy * weight;
    }
    const double least = 0.5 * (inertiaXX + inertiaYY -
                                std::sqrt((inertiaXX - inertiaYY) * (inertiaXX - inertiaYY) + 4 * inertiaXY * inertiaXY));
    const float degrees = std::fabs(inertiaXX) > std::fabs(inertiaYY)
                              ? cv::fastAtan2(float(least - inertiaXX), float(inertiaXY))
                              : cv::fastAtan2(float(inertiaXY), float(least - inertiaYY));
    double theta = degrees * (M_PI / 180);
    // The axis points the way of the region's level lines.
    if (std::fabs(signedAngleDifference(theta, regionAngle)) > precision) theta += M_PI;
    const double dx = std::cos(theta), dy = std::sin(theta);
    double lengthMin = 0, lengthMax = 0, widthMin = 0, widthMax = 0;
    for (const RegionPixel &member : region) {
        const double along = (member.x - centreX) * dx + (member.y - centreY) * dy;
        const double across = -(member.x - centreX) * dy + (member.y - centreY) * dx;
        lengthMin = std::min(lengthMin, along);
        lengthMax = std::max(lengthMax, along);
        widthMin = std::min(widthMin, across);
        widthMax = std::max(widthMax, across);
    }
    return {centreX + lengthMin * dx, centreY + lengthMin * dy, centreX + lengthMax * dx, centreY + lengthMax * dy,
            std::max(1.0, widthMax - widthMin)};
}

bool SegmentDetector::refine(SegmentRectangle &rectangle) {
    if (density(rectangle) >= minimumDensity) return true;
    // Grow the region again from its seed with a tolerance of twice the spread of the angles near the seed
    // (within the rectangle's width of it), which cuts an arc into straighter pieces.
    const RegionPixel seed = region.front();
    const double seedAngle = angles[size_t(seed.cell)];
    double sum = 0, squares = 0;
    int count = 0;
    for (const RegionPixel &member : region) {
        used[size_t(member.cell)] = 0;
        if (distance(member, seed) < rectangle.width) {
            const double difference = signedAngleDifference(angles[size_t(member.cell)], seedAngle);
            sum += difference;
            squares += difference * difference;
            ++count;
        }
    }
    const double mean = sum / count;
    grow(seed.cell, 2 * std::sqrt((squares - 2 * mean * sum) / count + mean * mean));
    if (region.size() < 2) return false;
    rectangle = enclosingRectangle();
    return density(rectangle) >= minimumDensity || reduceRadius(rectangle);
}

bool SegmentDetector::reduceRadius(SegmentRectangle &rectangle) {
    // Drop the pixels farthest from the seed, a quarter of the radius at a time, until the region is dense.
    const RegionPixel seed = region.front();
    const double toStart = std::sqrt((seed.x - rectangle.x1) * (seed.x - rectangle.x1) +
                                     (seed.y - rectangle.y1) * (seed.y - rectangle.y1));
    const double toEnd = std::sqrt((seed.x - rectangle.x2) * (seed.x - rectangle.x2) +
                                   (seed.y - rectangle.y2) * (seed.y - rectangle.y2));
    double radius = std::max(toStart, toEnd);
    while (density(rectangle) < minimumDensity) {
        radius *= 0.75;
        for (size_t member = 0; member < region.size();) {
            if (distance(region[member], seed) > radius) {
                used[size_t(region[member].cell)] = 0;
                region[member] = region.back();
                region.pop_back();
            } else {
                ++member;
            }
        }
        if (region.size() < 2) return false;
        rectangle = enclosingRectangle();
    }
    return true;
}

std::vector<float> SegmentDetector::segments() {
    std::vector<float> result;
    if (width < 2 || height < 2) return result;
    // The least region that could be meaningful (the paper's bound with ε = 1): fewer aligned pixels than this
    // happen by chance among the image's (width·height)^{5/2} rectangles at probability tolerance / 180°.
    const double logTests = 5 * (std::log10(double(width)) + std::log10(double(height))) / 2 + std::log10(11.0);
    const size_t minimumRegion = size_t(-logTests / std::log10(toleranceDegrees / 180));
    for (const int32_t seed : seeds) {
        if (used[size_t(seed)]) continue;
        grow(seed, precision);
        if (region.size() < minimumRegion) continue;
        SegmentRectangle rectangle = enclosingRectangle();
        if (!refine(rectangle)) continue;
        // Gradients belong to the points between pixels, half a pixel down and to the right.
        for (const double coordinate : {rectangle.x1, rectangle.y1, rectangle.x2, rectangle.y2})
            result.push_back(float((coordinate + 0.5) / scale));
    }
    return result;
}

}  // namespace

int svi_line_segments(SVImageView gray, float **segments, int32_t *count) {
    return guarded([&] {
        const cv::Mat image = asMat(gray);
        if (image.type() != CV_8UC1) {
            lastError = "line segments need an 8-bit gray image (one channel)";
            return -1;
        }
        const std::vector<float> found = SegmentDetector(image).segments();
        *segments = static_cast<float *>(std::malloc(sizeof(float) * (found.size() + 1)));
        if (*segments == nullptr) {
            lastError = "out of memory";
            return -1;
        }
        std::copy(found.begin(), found.end(), *segments);
        *count = static_cast<int32_t>(found.size() / 4);
        return 0;
    });
}
