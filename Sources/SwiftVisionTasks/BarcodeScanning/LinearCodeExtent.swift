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
        let reference = line.levels(movedBy: 0, along: bars)
        let firstRead = ((topLeft - middle) * bars).sum(), lastRead = ((bottomLeft - middle) * bars).sum()
        func reach(_ step: Double) -> Double {
            var offset = step > 0 ? max(firstRead, lastRead, 0) : min(firstRead, lastRead, 0)
            var misses = 0
            while abs(offset) < readLength, misses < 2, line.isInside(movedBy: offset + step, along: bars) {
                offset += step
                let match = LineSampler.correlation(line.levels(movedBy: offset, along: bars), reference)
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

    /// The levels along the segment moved by `offset` pixels in the direction `shift` (a unit vector).
    func levels(movedBy offset: Double, along shift: SIMD2<Double>) -> [Double] {
        let count = sampleCount
        return (0..<count).map { index in
            let point = start + (end - start) * (Double(index) / Double(count - 1)) + shift * offset
            return gray.intensity(x: point.x, y: point.y)
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
        let own = levels(movedBy: 0, along: guess)
        func score(_ degrees: Double) -> Double {
            let angle = base + degrees * .pi / 180
            let direction = SIMD2(cos(angle), sin(angle))
            let match = max(
                Self.correlation(own, levels(movedBy: 8, along: direction)),
                Self.correlation(own, levels(movedBy: -8, along: direction)))
            return match - 0.001 * abs(degrees)
        }
        let best = stride(from: -4.0, through: 4, by: 0.25).max { score($0) < score($1) }!
        let angle = base + best * .pi / 180
        return SIMD2(cos(angle), sin(angle))
    }

    /// Pearson's correlation of two equally long series; 0 when either is flat.
    static func correlation(_ a: [Double], _ b: [Double]) -> Double {
        let meanA = a.reduce(0, +) / Double(a.count), meanB = b.reduce(0, +) / Double(b.count)
        var (ab, aa, bb) = (0.0, 0.0, 0.0)
        for (x, y) in zip(a, b) {
            ab += (x - meanA) * (y - meanB)
            aa += (x - meanA) * (x - meanA)
            bb += (y - meanB) * (y - meanB)
        }
        return aa > 0 && bb > 0 ? ab / (aa * bb).squareRoot() : 0
    }
}
