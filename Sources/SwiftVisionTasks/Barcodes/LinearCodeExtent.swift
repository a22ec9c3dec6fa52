import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

extension Barcode {
    /// The bars' direction is first estimated from the gradients within this many pixels of the read line.
    static let barBand = 8

    /// For a linear code, whose corners zxing-cpp gives only for the few lines it read: the corners
    /// of the whole run of bars. Other codes are returned unchanged.
    ///
    /// The bars' direction is measured around the read line (the strongest stripes near it, then the
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
        let guess = barAxis(in: gray, from: readStart, to: readEnd) ?? readVector / readLength
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

    /// The unit vector across the bars that the read line from `start` to `end` crosses: the mean
    /// direction (doubled angles, weighted by strength) of the strong gradients within ``barBand``
    /// pixels of it, which all lie on the bars; nil when there are none.
    private func barAxis(in gray: PixelBuffer, from start: SIMD2<Double>, to end: SIMD2<Double>) -> SIMD2<Double>? {
        let vector = end - start
        let length = (vector * vector).sum().squareRoot()
        let along = vector / length, across = SIMD2(-along.y, along.x)
        let threshold = StripeRegions.minimumSobel
        var directions = DirectionSum()
        gray.bytes.withUnsafeBufferPointer { pixels in
            for step in 0...Int(length) {
                for offset in -Self.barBand...Self.barBand {
                    let point = start + along * Double(step) + across * Double(offset)
                    let x = Int(point.x.rounded()), y = Int(point.y.rounded())
                    guard x >= 1, y >= 1, x < gray.width - 1, y < gray.height - 1 else { continue }
                    let (gx, gy) = StripeRegions.sobel(at: y * gray.bytesPerRow + x, stride: gray.bytesPerRow, in: pixels)
                    let squared = gx * gx + gy * gy
                    guard squared >= threshold * threshold else { continue }
                    directions.add(gradientX: Double(gx), y: Double(gy), inverseMagnitude: 1 / Double(squared).squareRoot())
                }
            }
        }
        guard directions.length > 0 else { return nil }
        let angle = atan2(directions.sine, directions.cosine) / 2
        return SIMD2(cos(angle), sin(angle))
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
    /// nearly equal matches the one nearest the guess wins; quarter degrees are tried near the best whole one.
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
        func best(_ candidates: StrideThrough<Double>) -> Double {
            candidates.filter { abs($0) <= 4 }.map { ($0, score($0)) }.max { $0.1 < $1.1 }!.0
        }
        // Whole degrees first, then quarters around the best: the match changes slowly with the angle.
        let coarse = best(stride(from: -4.0, through: 4, by: 1))
        let fine = best(stride(from: coarse - 0.75, through: coarse + 0.75, by: 0.25))
        let angle = base + fine * .pi / 180
        return SIMD2(cos(angle), sin(angle))
    }
}
