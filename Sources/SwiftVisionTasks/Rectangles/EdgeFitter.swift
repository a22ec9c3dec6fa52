import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Fits straight lines to the sides of a rough quadrilateral: across each side it finds the
/// strongest step in gray level, keeps the steps of the side's dominant polarity (light to dark or
/// dark to light), and fits a line through them, dropping outliers.
struct EdgeFitter {
    /// The levels of a gray image.
    let image: GrayLevels
    /// The smallest gray-level difference across two pixels that counts as an edge.
    var minimumStep = 10.0
    /// Steps farther than this from the fitted line, in pixels, are outliers.
    var inlierDistance = 1.5

    /// A straight line through `point` along the unit vector `direction`.
    struct Line {
        var point: SIMD2<Double>
        var direction: SIMD2<Double>

        /// Where this line meets `other`, unless they are within about 10° of parallel.
        func intersection(with other: Line) -> SIMD2<Double>? {
            let cross = direction.x * other.direction.y - direction.y * other.direction.x
            guard abs(cross) > 0.17 else { return nil }
            let offset = other.point - point
            let t = (offset.x * other.direction.y - offset.y * other.direction.x) / cross
            return point + direction * t
        }
    }

    /// A quadrilateral fitted to edges, with the evidence for it.
    struct Fit {
        var shape: Quadrilateral
        /// For each side (top, right, bottom, left), the share of its length that lies on a clear edge.
        var support: [Double]
        /// The share of the short stretches just beyond the corners, along the sides' lines, that
        /// also lie on an edge: near 0 when the sides end at the corners, as an object's outline does.
        var overrun: Double

        /// The geometric mean of the sides' support, lowered by up to half by the overrun past the
        /// corners (only so far, since background lines sometimes do line up with an object's sides).
        var confidence: Double { pow(support.reduce(1, *), 0.25) * (1 - overrun / 2) }
    }

    /// Side fits already made at one radius, by the side's ends (start x, y, end x, y).
    ///
    /// Candidates chained from the same segments share sides exactly, corner for corner: on the MIDV-500
    /// frames whose outlines leave the report open, 30-40 % of the sides the wide fit is asked for were
    /// fitted before (56 of 136 on 31_jpn_drvlic-4).
    struct SideFits {
        /// The radius the sides are fitted within.
        let radius: Double
        fileprivate var fits: [SIMD4<Double>: (line: Line, support: Double)?] = [:]

        init(radius: Double) {
            self.radius = radius
        }
    }

    /// The quadrilateral with every side refitted within `radius` pixels of its rough position;
    /// nil if a side has no edge, or if `isPromising` turns down the confidence that the sides fitted
    /// so far leave possible.
    ///
    /// The sides are fitted in `sideOrder` (indices of `shape.sides`, the weakest expected first), and
    /// once the product of their supports puts the fit's confidence, whatever the other sides hold, at
    /// a value `isPromising` is false for, no other side is fitted: a fit's confidence is at most the
    /// fourth root of that product (``Fit/confidence``), so such a fit could not pass a check that
    /// `isPromising` makes with the same threshold.
    func refine(
        _ shape: Quadrilateral, radius: Double, sideOrder: [Int] = [0, 1, 2, 3],
        isPromising: (Double) -> Bool = { _ in true }
    ) throws -> Fit? {
        try image.withSampler { sampler in
            let sides = shape.sides
            var fits = [(line: Line, support: Double)?](repeating: nil, count: 4)
            var product = 1.0
            for index in sideOrder {
                let side = sides[index]
                guard let fit = try fit(from: SIMD2(side.start), to: SIMD2(side.end), radius: radius) else { return nil }
                fits[index] = fit
                product *= fit.support
                guard isPromising(pow(product, 0.25)) else { return nil }
            }
            let found = fits.compactMap { $0 }
            guard found.count == 4, let (refined, corners) = meeting(found.map(\.line), near: shape, radius: radius) else { return nil }
            let overruns = (0..<4).flatMap { index in
                let start = corners[index], end = corners[(index + 1) % 4]
                return [
                    edgeShare(beyond: start, awayFrom: end, sampler: sampler),
                    edgeShare(beyond: end, awayFrom: start, sampler: sampler),
                ]
            }
            return Fit(shape: refined, support: found.map(\.support), overrun: overruns.reduce(0, +) / 8)
        }
    }

    /// The quadrilateral with every side refitted as ``refine(_:radius:sideOrder:isPromising:)`` does at
    /// the radius of `sideFits`, taking the fit of each side fitted before from it and adding the others,
    /// with each side's support (top, right, bottom, left); nil where that would be nil. The overrun past
    /// the corners is not measured: the shape only starts a narrower fit.
    func refineSides(_ shape: Quadrilateral, reusing sideFits: inout SideFits) throws -> (shape: Quadrilateral, support: [Double])? {
        var lines: [Line] = [], support: [Double] = []
        for side in shape.sides {
            let start = SIMD2(side.start), end = SIMD2(side.end)
            let key = SIMD4(start.x, start.y, end.x, end.y)
            let made: (line: Line, support: Double)?
            if let known = sideFits.fits[key] {
                made = known
            } else {
                made = try fit(from: start, to: end, radius: sideFits.radius)
                sideFits.fits[key] = .some(made)
            }
            guard let made else { return nil }
            lines.append(made.line)
            support.append(made.support)
        }
        guard let (refined, _) = meeting(lines, near: shape, radius: sideFits.radius) else { return nil }
        return (refined, support)
    }

    /// The quadrilateral whose sides lie on `lines` (top, right, bottom, left) and its corners; nil if two
    /// neighbouring lines are near parallel, or if it is not convex or moves a corner of `shape` more than
    /// 3 × `radius` + 2.
    private func meeting(_ lines: [Line], near shape: Quadrilateral, radius: Double) -> (Quadrilateral, [SIMD2<Double>])? {
        // Side i runs from corner i to corner i + 1, so corner i lies where sides i − 1 and i meet.
        var corners: [SIMD2<Double>] = []
        for index in 0..<4 {
            guard let corner = lines[(index + 3) % 4].intersection(with: lines[index]) else { return nil }
            corners.append(corner)
        }
        let points = corners.map { CGPoint(x: $0.x, y: $0.y) }
        let refined = Quadrilateral(topLeft: points[0], topRight: points[1], bottomRight: points[2], bottomLeft: points[3])
        guard refined.isConvex, refined.largestCornerDistance(to: shape) <= 3 * radius + 2 else { return nil }
        return (refined, corners)
    }

    /// A cheap estimate of a fit's support, to rank rough candidates before fitting them: for each
    /// side, the share of 12 cuts across it that cross a clear step within `radius` pixels of it, and
    /// the geometric mean of the four shares. It reads about 500 levels where a fit reads 10 000.
    func roughSupport(of shape: Quadrilateral, radius: Int) -> Double {
        let samples = 12
        return image.withSampler { sampler in
            var product = 1.0
            for side in shape.sides {
                let start = SIMD2(side.start), vector = SIMD2(side.end) - start
                let length = (vector * vector).sum().squareRoot()
                guard length >= 4 else { return 0 }
                let normal = SIMD2(-vector.y, vector.x) / length
                var onEdge = 0
                for index in 0..<samples {
                    let base = start + vector * (0.08 + 0.84 * (Double(index) + 0.5) / Double(samples))
                    var previous = sampler.intensity(
                        x: base.x - normal.x * Double(radius + 1), y: base.y - normal.y * Double(radius + 1))
                    var current = sampler.intensity(x: base.x - normal.x * Double(radius), y: base.y - normal.y * Double(radius))
                    for offset in -radius...radius {
                        let point = base + normal * Double(offset + 1)
                        let next = sampler.intensity(x: point.x, y: point.y)
                        if abs(next - previous) >= minimumStep {
                            onEdge += 1
                            break
                        }
                        (previous, current) = (current, next)
                    }
                }
                product *= Double(onEdge) / Double(samples)
            }
            return pow(product, 0.25)
        }
    }

    /// The share of points on the line from `other` through `corner`, continued past `corner` by 3 %
    /// to 15 % of the side's length, that lie on an edge along that line.
    private func edgeShare(beyond corner: SIMD2<Double>, awayFrom other: SIMD2<Double>, sampler: GrayLevels.Sampler) -> Double {
        let vector = corner - other
        let length = (vector * vector).sum().squareRoot()
        let outward = vector / length, normal = SIMD2(-outward.y, outward.x)
        let samples = 8
        var onEdge = 0
        for index in 0..<samples {
            let point = corner + outward * (length * (0.03 + 0.12 * Double(index) / Double(samples - 1)) + 1)
            let step = sampler.profile(at: point + normal, along: outward) - sampler.profile(at: point - normal, along: outward)
            if abs(step) >= minimumStep { onEdge += 1 }
        }
        return Double(onEdge) / Double(samples)
    }

    /// The line through the strongest edge near the segment from `start` to `end`, and its support.
    private func fit(from start: SIMD2<Double>, to end: SIMD2<Double>, radius: Double) throws -> (line: Line, support: Double)? {
        let vector = end - start
        let length = (vector * vector).sum().squareRoot()
        guard length >= 4 else { return nil }
        let along = vector / length
        let normal = SIMD2(-along.y, along.x)
        let count = Int(min(96, max(12, length / 3)))
        // Gray levels every half pixel across the side, then the step over two pixels at each offset.
        let offsets = Array(stride(from: -radius - 1, through: radius + 1, by: 0.5))
        let stepCount = offsets.count - 4
        guard stepCount > 0 else { return nil }
        // Samples keep clear of the corners, where neighbouring sides and rounding interfere.
        let bases = (0..<count).map { (index: Int) -> SIMD2<Double> in
            start + vector * (0.08 + 0.84 * (Double(index) + 0.5) / Double(count))
        }
        let steps = try image.steps(at: bases, across: normal, along: along, offsets: offsets)
        var rising: [SIMD2<Double>] = [], falling: [SIMD2<Double>] = []
        rising.reserveCapacity(count)
        falling.reserveCapacity(count)
        steps.withUnsafeBufferPointer { steps in
            for (index, base) in bases.enumerated() {
                let row = UnsafeBufferPointer(rebasing: steps[index * stepCount..<(index + 1) * stepCount])
                // The first strongest rise and the first strongest fall, their steps kept at hand.
                var (highest, lowest) = (0, 0)
                var (high, low) = (row[0], row[0])
                for position in 1..<stepCount {
                    let step = row[position]
                    if step > high { (highest, high) = (position, step) }
                    if step < low { (lowest, low) = (position, step) }
                }
                if high >= minimumStep {
                    rising.append(base + normal * Self.refined(offsets[highest + 2], at: highest, in: row))
                }
                if -low >= minimumStep {
                    falling.append(base + normal * Self.refined(offsets[lowest + 2], at: lowest, in: row))
                }
            }
        }
        let points = rising.count >= falling.count ? rising : falling
        guard points.count >= max(3, count / 5), var line = Self.line(through: points) else { return nil }
        var inliers = points
        for _ in 0..<2 {
            inliers = points.filter { distance(from: $0, to: line) <= inlierDistance }
            guard inliers.count >= 3, let refit = Self.line(through: inliers) else { return nil }
            line = refit
        }
        return (line, Double(inliers.count) / Double(count))
    }

    /// `offset`, the offset of the extreme step at `index` in `steps` (each step's value, its offsets
    /// half a pixel apart), refined to a fraction of a sample by fitting a parabola through its neighbours.
    @inline(__always)
    static func refined<Steps: RandomAccessCollection>(_ offset: Double, at index: Int, in steps: Steps) -> Double
    where Steps.Element == Double, Steps.Index == Int {
        guard index > steps.startIndex, index < steps.endIndex - 1 else { return offset }
        let (a, b, c) = (steps[index - 1], steps[index], steps[index + 1])
        let curvature = a - 2 * b + c
        guard curvature != 0 else { return offset }
        return offset + 0.5 * min(max(0.5 * (a - c) / curvature, -1), 1)
    }

    func distance(from point: SIMD2<Double>, to line: Line) -> Double {
        let offset = point - line.point
        return abs(offset.x * line.direction.y - offset.y * line.direction.x)
    }

    /// The total-least-squares line through `points`: through their centroid along their principal axis.
    static func line(through points: [SIMD2<Double>]) -> Line? {
        guard points.count >= 2 else { return nil }
        let centroid = points.reduce(SIMD2<Double>.zero, +) / Double(points.count)
        var (xx, xy, yy) = (0.0, 0.0, 0.0)
        for point in points {
            let d = point - centroid
            xx += d.x * d.x
            xy += d.x * d.y
            yy += d.y * d.y
        }
        let angle = 0.5 * atan2(2 * xy, xx - yy)
        return Line(point: centroid, direction: SIMD2(cos(angle), sin(angle)))
    }
}

extension SIMD2 where Scalar == Double {
    init(_ point: CGPoint) {
        self.init(Double(point.x), Double(point.y))
    }
}
