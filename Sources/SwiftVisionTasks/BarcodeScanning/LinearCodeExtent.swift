import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

extension Barcode {
    /// For a linear code, whose corners zxing-cpp gives only for the few lines it read: the corners
    /// of the whole run of bars. Other codes are returned unchanged.
    ///
    /// The bars' direction is measured around the read line (the strongest stripes, then the
    /// direction in which the gray levels along the read line, moved a few pixels either way, match
    /// best); the read line's ends are projected onto the code's axis, across the bars, and the
    /// line is moved along the bars for as long as its gray levels still match those of the read line.
    func withBarsMeasured(in gray: PixelBuffer) throws -> Barcode {
        guard BarcodeFormat.linear.contains(format) else { return self }
        let topLeft = SIMD2(corners.topLeft), topRight = SIMD2(corners.topRight)
        let bottomLeft = SIMD2(corners.bottomLeft), bottomRight = SIMD2(corners.bottomRight)
        let readStart = (topLeft + bottomLeft) / 2, readEnd = (topRight + bottomRight) / 2
        let readVector = readEnd - readStart
        let readLength = (readVector * readVector).sum().squareRoot()
        guard readLength >= 8 else { return self }
        let sampler = LineSampler(gray: gray, start: readStart, end: readEnd)
        let guess = try barAxis(in: gray, around: (readStart + readEnd) / 2, reach: readLength / 2)
            ?? readVector / readLength
        let bars = sampler.bestBarDirection(near: SIMD2(-guess.y, guess.x))
        // The code's axis runs across the bars, in the reading direction.
        var axis = SIMD2(bars.y, -bars.x)
        if (axis * readVector).sum() < 0 { axis = -axis }
        let middle = (readStart + readEnd) / 2
        let start = middle + axis * ((readStart - middle) * axis).sum()
        let end = middle + axis * ((readEnd - middle) * axis).sum()
        let line = LineSampler(gray: gray, start: start, end: end)
        let reference = LineSampler.Centred(line.levels(movedBy: 0, along: bars))
        let firstRead = ((topLeft - middle) * bars).sum(), lastRead = ((bottomLeft - middle) * bars).sum()
        func reach(_ step: Double) -> Double {
            var offset = step > 0 ? max(firstRead, lastRead, 0) : min(firstRead, lastRead, 0)
            var misses = 0
            while abs(offset) < readLength, misses < 2, line.isInside(movedBy: offset + step, along: bars) {
                offset += step
                let match = reference.correlation(with: line.levels(movedBy: offset, along: bars))
                misses = match >= 0.6 ? 0 : misses + 1
            }
            return offset - step * Double(misses)
        }
        let low = reach(-1), high = reach(1)
        // Keep the corner names: the side of the first read line stays the top.
        let (top, bottom) = firstRead <= lastRead ? (low, high) : (high, low)
        func point(_ base: SIMD2<Double>, _ offset: Double) -> CGPoint {
            let p = base + bars * offset
            return CGPoint(x: p.x, y: p.y)
        }
        var barcode = self
        barcode.corners = Quadrilateral(
            topLeft: point(start, top), topRight: point(end, top), bottomRight: point(end, bottom),
            bottomLeft: point(start, bottom))
        return barcode
    }

    /// The unit vector across the strongest stripes within `reach` pixels of `center`; nil when there are none.
    private func barAxis(in gray: PixelBuffer, around center: SIMD2<Double>, reach: Double) throws -> SIMD2<Double>? {
        let minX = max(0, Int(center.x - reach)), minY = max(0, Int(center.y - reach))
        let maxX = min(gray.width, Int(center.x + reach) + 1), maxY = min(gray.height, Int(center.y + reach) + 1)
        guard maxX - minX >= 8, maxY - minY >= 8 else { return nil }
        let patch = try gray.cropped(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        guard let degrees = try StripeDirections.strongest(in: patch, count: 1).first else { return nil }
        return SIMD2(cos(degrees * .pi / 180), sin(degrees * .pi / 180))
    }
}

/// Gray levels along a segment of a gray buffer, and along copies of it moved sideways.
struct LineSampler {
    let gray: PixelBuffer
    let start: SIMD2<Double>
    let end: SIMD2<Double>

    var sampleCount: Int {
        let length = ((end - start) * (end - start)).sum().squareRoot()
        return Int(min(512, max(32, length)))
    }

    /// The levels along the segment moved by `offset` pixels in the direction `shift` (a unit vector),
    /// bilinearly interpolated, the nearest edge pixel outside the buffer.
    func levels(movedBy offset: Double, along shift: SIMD2<Double>) -> [Double] {
        let count = sampleCount
        let (width, height, stride) = (gray.width, gray.height, gray.bytesPerRow)
        let step = (end - start) / Double(count - 1), origin = start + shift * offset
        return gray.bytes.withUnsafeBufferPointer { pixels in
            (0..<count).map { index in
                let point = origin + step * Double(index)
                let x = min(max(point.x, 0), Double(width - 1)), y = min(max(point.y, 0), Double(height - 1))
                let left = Int(x), top = Int(y)
                let right = min(left + 1, width - 1), bottom = min(top + 1, height - 1)
                let fx = x - Double(left), fy = y - Double(top)
                let upper = Double(pixels[top * stride + left]) * (1 - fx) + Double(pixels[top * stride + right]) * fx
                let lower = Double(pixels[bottom * stride + left]) * (1 - fx) + Double(pixels[bottom * stride + right]) * fx
                return upper * (1 - fy) + lower * fy
            }
        }
    }

    /// A series with its mean taken off and its norm, to correlate many others with.
    struct Centred {
        let values: [Double]
        let norm: Double

        init(_ series: [Double]) {
            let mean = series.reduce(0, +) / Double(series.count)
            values = series.map { $0 - mean }
            norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        }

        /// Pearson's correlation with `other`, as long as the series; 0 when either is flat.
        func correlation(with other: [Double]) -> Double {
            let mean = other.reduce(0, +) / Double(other.count)
            var (product, squares) = (0.0, 0.0)
            for (a, b) in zip(values, other) {
                product += a * (b - mean)
                squares += (b - mean) * (b - mean)
            }
            return norm > 0 && squares > 0 ? product / (norm * squares.squareRoot()) : 0
        }
    }

    /// Whether both ends of the moved segment lie on the buffer's pixels.
    func isInside(movedBy offset: Double, along shift: SIMD2<Double>) -> Bool {
        [start, end].allSatisfy { base in
            let p = base + shift * offset
            return p.x >= -0.5 && p.y >= -0.5 && p.x <= Double(gray.width) - 0.5 && p.y <= Double(gray.height) - 0.5
        }
    }

    /// The direction within 4° of `guess` (a unit vector) along which the levels of the segment,
    /// moved 8 pixels one way or the other, match its own best: the direction of the bars the
    /// segment crosses. (One way only, since the segment may run along the bars' end.) Among
    /// nearly equal matches the one nearest the guess wins.
    func bestBarDirection(near guess: SIMD2<Double>) -> SIMD2<Double> {
        let base = atan2(guess.y, guess.x)
        let own = Centred(levels(movedBy: 0, along: guess))
        func score(_ degrees: Double) -> Double {
            let angle = base + degrees * .pi / 180
            let direction = SIMD2(cos(angle), sin(angle))
            let match = max(
                own.correlation(with: levels(movedBy: 8, along: direction)),
                own.correlation(with: levels(movedBy: -8, along: direction)))
            return match - 0.001 * abs(degrees)
        }
        let best = stride(from: -4.0, through: 4, by: 0.25).max { score($0) < score($1) }!
        let angle = base + best * .pi / 180
        return SIMD2(cos(angle), sin(angle))
    }
}
