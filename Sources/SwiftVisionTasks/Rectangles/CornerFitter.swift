import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Moves the corners of a fitted quadrilateral onto the outer edges near them.
///
/// A side fitted as one straight line misses the corners when the side is bent (a curled page), and
/// a thick border line (a printed grid's frame) has two edges, of which the fit may follow the inner
/// one. Near each corner, each adjoining side is looked at over its half next to that corner: across
/// it, the first clear step outwards from the fitted line. Where a line through those steps explains
/// them clearly better than the fitted side, the side is bent there and that line replaces it. Where
/// the steps enter a dark line along the side, thin next to the quadrilateral, that the next steps
/// leave on a parallel line, rising back about as far as they fell (a line printed on a surface; a
/// shadow or the background beyond an object rises less), that outer line replaces it. The corner is
/// where its two sides meet; a corner whose sides both stay does not move.
///
/// A fitter serves one image: the outer edges it finds are kept, by the side piece they were looked
/// for along, and a piece whose ends lie within ``sharedEnds`` of one looked at before takes that one's
/// (copies of the fitter share them).
struct CornerFitter {
    /// The fitter of the full gray image, whose gray-level profiles are read.
    let edges: EdgeFitter
    /// The outer edges found so far.
    private let found = OuterEdges()
    /// How far outwards from a fitted side the outer edge is looked for, as a fraction of the
    /// quadrilateral's shorter side.
    var reach = 0.05
    /// The widest border line whose outer edge is taken, as a fraction of the quadrilateral's shorter side.
    var lineWidth = 0.025
    /// The largest angle, in degrees, between a local line and the fitted side.
    var maximumTurn = 4.0
    /// The largest angle, in degrees, between the two edges of a border line.
    var maximumSpread = 2.0
    /// A local line counts when at least this share of its samples lies on it.
    var minimumSupport = 0.6
    /// The rise out of a border line must be at least this share of the fall into it.
    var minimumRecovery = 0.5
    /// A bent side's local line must hold this many times the samples that the fitted side holds.
    var bendEvidence = 1.25

    /// How close the ends of two side pieces, in pixels, and their quadrilaterals' shorter sides, in twice
    /// that, must be for the outer edge found along one to serve the other.
    ///
    /// The candidates that reach the corner fit on a frame are often copies of one card whose corners
    /// differ by hundredths of a pixel (chains of segments that differ only in a piece far from the
    /// card): on the 70 MIDV-500 frames of the rectangles DEV set (`eval/rectangles_dev.py`), 0.05 px
    /// moves no reported corner by more than 0.12 px at a limit of 0 or 3 and none at a limit of 1,
    /// where 0.25 px moves one of 02_aut_drvlic_new-2's by 12.6 px at no limit. On the 30 TEST frames
    /// it spares 205 of the 648 pieces looked along (115 of 200 on 31_jpn_drvlic-4).
    static let sharedEnds = 0.05

    /// Outer edges found, by the side piece they were looked for along; a reference, so that the
    /// fitter stays a value that reads as unchanged while it learns.
    private final class OuterEdges {
        /// A side piece's ends, its quadrilateral's shorter side, and the outer edge along it (nil: none).
        typealias Entry = (start: SIMD2<Double>, end: SIMD2<Double>, shorterSide: Double, line: EdgeFitter.Line?)
        /// Every piece looked at, in order.
        private var entries: [Entry] = []
        /// The indices in `entries` of the pieces whose start lies in each grid cell, ``sharedEnds`` wide.
        private var cells: [SIMD2<Int>: [Int]] = [:]

        /// The outer edge found along a piece like the one from `start` to `end`, if one was looked at:
        /// `.some(nil)` where none was found.
        func line(from start: SIMD2<Double>, to end: SIMD2<Double>, shorterSide: Double) -> EdgeFitter.Line?? {
            let tolerance = CornerFitter.sharedEnds
            let cell = Self.cell(of: start)
            for dx in -1...1 {
                for dy in -1...1 {
                    for index in cells[cell &+ SIMD2(dx, dy)] ?? [] {
                        let entry = entries[index]
                        let ends = SIMD4(entry.start.x - start.x, entry.start.y - start.y, entry.end.x - end.x, entry.end.y - end.y)
                        if pointwiseMax(ends, -ends).max() <= tolerance, abs(entry.shorterSide - shorterSide) <= 2 * tolerance {
                            return .some(entry.line)
                        }
                    }
                }
            }
            return nil
        }

        /// How many pieces were looked along in the image.
        var count: Int { entries.count }

        /// Keeps `entry`.
        func insert(_ entry: Entry) {
            cells[Self.cell(of: entry.start), default: []].append(entries.count)
            entries.append(entry)
        }

        /// The grid cell of `point`: points within ``sharedEnds`` lie in the same or neighbouring cells.
        private static func cell(of point: SIMD2<Double>) -> SIMD2<Int> {
            SIMD2(Int((point.x / CornerFitter.sharedEnds).rounded(.down)), Int((point.y / CornerFitter.sharedEnds).rounded(.down)))
        }
    }

    /// What one cut across a side found, in pixels outwards from the fitted side.
    private struct Crossing {
        /// Where the cut starts, on the fitted side.
        var base: SIMD2<Double>
        /// The first clear step outwards.
        var inner: Double
        /// Whether it goes from light to dark.
        var falling: Bool
        /// Where a printed border line entered at `inner` is left, if it is one.
        var outer: Double?
    }

    /// How many side pieces this fitter (and its copies) looked along in the image, each once.
    var piecesRead: Int { found.count }

    /// The farthest ``refine(_:)`` moves a corner of a quadrilateral whose shorter side is `shorterSide` long.
    func largestMove(shorterSide: Double) -> Double {
        1.5 * reach * shorterSide
    }

    /// `shape` with each corner moved to the meeting point of its sides' outer edges near it.
    func refine(_ shape: Quadrilateral) throws -> Quadrilateral {
        let size = shape.averageSideLengths
        let shorter = Double(min(size.width, size.height))
        let points = shape.corners.map { SIMD2<Double>($0) }
        let moved = try (0..<4).map { index -> CGPoint in
            let corner = points[index], previous = points[(index + 3) % 4], next = points[(index + 1) % 4]
            // Sides run clockwise, so going from `previous` to `corner` the outside lies to the left.
            let incoming = try outerLine(from: (previous + corner) / 2, to: corner, shorterSide: shorter)
            let outgoing = try outerLine(from: corner, to: (corner + next) / 2, shorterSide: shorter)
            guard incoming != nil || outgoing != nil,
                let meeting = (incoming ?? Self.line(from: previous, to: corner))
                    .intersection(with: outgoing ?? Self.line(from: corner, to: next)),
                ((meeting - corner) * (meeting - corner)).sum().squareRoot() <= largestMove(shorterSide: shorter)
            else { return shape.corners[index] }
            return CGPoint(x: meeting.x, y: meeting.y)
        }
        let refined = Quadrilateral(topLeft: moved[0], topRight: moved[1], bottomRight: moved[2], bottomLeft: moved[3])
        return refined.isConvex ? refined : shape
    }

    /// The outer edge along the clockwise side piece from `start` to `end`, where it is not the
    /// fitted side through them; nil where it is. The one found along a piece like it, if any.
    private func outerLine(from start: SIMD2<Double>, to end: SIMD2<Double>, shorterSide: Double) throws -> EdgeFitter.Line? {
        if let known = found.line(from: start, to: end, shorterSide: shorterSide) { return known }
        let line = try lookForOuterLine(from: start, to: end, shorterSide: shorterSide)
        found.insert((start, end, shorterSide, line))
        return line
    }

    /// The outer edge along the clockwise side piece from `start` to `end`, read from the image.
    private func lookForOuterLine(from start: SIMD2<Double>, to end: SIMD2<Double>, shorterSide: Double) throws -> EdgeFitter.Line? {
        let vector = end - start
        let length = (vector * vector).sum().squareRoot()
        guard length >= 8 else { return nil }
        let along = vector / length, outward = SIMD2(along.y, -along.x)
        let count = Int(min(48, max(8, length / 3)))
        // Gray levels every half pixel across the side, from 2 pixels inside to `reach` outside it.
        let offsets = Array(stride(from: -2, through: reach * shorterSide + 1, by: 0.5))
        let bases = (0..<count).map { (sample: Int) -> SIMD2<Double> in
            start + vector * (0.08 + 0.88 * (Double(sample) + 0.5) / Double(count))
        }
        let stepCount = offsets.count - 4
        let steps = try edges.image.steps(at: bases, across: outward, along: along, offsets: offsets)
        let crossings = steps.withUnsafeBufferPointer { steps in
            bases.indices.compactMap { (index: Int) -> Crossing? in
                crossing(
                    at: bases[index], steps: UnsafeBufferPointer(rebasing: steps[index * stepCount..<(index + 1) * stepCount]),
                    offsets: offsets, lineWidth: lineWidth * shorterSide)
            }
        }
        let falling = crossings.filter(\.falling)
        let kept = 2 * falling.count >= crossings.count ? falling : crossings.filter { !$0.falling }
        let onSide = kept.filter { abs($0.inner) <= edges.inlierDistance }
        let local = robustLine(through: kept.map { $0.base + outward * $0.inner }, samples: count, along: along)
        let bent = local.flatMap { Double($0.inliers.count) >= bendEvidence * Double(onSide.count) ? $0.line : nil }
        let side = bent ?? Self.line(from: start, to: end)
        // The far edge of a border line, where the steps onto the side's line enter one.
        let far = kept.compactMap { crossing -> SIMD2<Double>? in
            guard let outer = crossing.outer,
                edges.distance(from: crossing.base + outward * crossing.inner, to: side) <= edges.inlierDistance
            else { return nil }
            return crossing.base + outward * outer
        }
        if let border = robustLine(through: far, samples: count, along: along),
            abs((border.line.direction * side.direction).sum()) >= cos(maximumSpread * .pi / 180)
        {
            return border.line
        }
        return bent
    }

    /// The first clear step outwards across the side at `base`, in `steps`, the steps across it centred at
    /// `offsets` (half a pixel apart) but the first and last two (``GrayLevels/steps(at:across:along:offsets:)``),
    /// and, if it enters a printed border line no wider than `lineWidth`, where that line is left.
    private func crossing(
        at base: SIMD2<Double>, steps: UnsafeBufferPointer<Double>, offsets: [Double], lineWidth: Double
    ) -> Crossing? {
        guard let first = steps.firstIndex(where: { abs($0) >= edges.minimumStep }) else { return nil }
        let peak = steepest(from: first, in: steps)
        let falling = steps[peak] < 0
        let inner = EdgeFitter.refined(offsets[peak + 2], at: peak, in: steps)
        guard falling else { return Crossing(base: base, inner: inner, falling: false) }
        // Past the step into the line, the next clear step must leave it (rise).
        var index = peak
        while index < steps.count, -steps[index] >= edges.minimumStep { index += 1 }
        guard let next = steps[index...].firstIndex(where: { abs($0) >= edges.minimumStep }), steps[next] > 0 else {
            return Crossing(base: base, inner: inner, falling: true)
        }
        // A line printed on a surface has the surface on both sides: the way out rises about as far as the way in fell.
        let outerPeak = steepest(from: next, in: steps)
        let outer = EdgeFitter.refined(offsets[outerPeak + 2], at: outerPeak, in: steps)
        let printed = outer - inner <= lineWidth && steps[outerPeak] >= -minimumRecovery * steps[peak]
        return Crossing(base: base, inner: inner, falling: true, outer: printed ? outer : nil)
    }

    /// The index of the steepest step in the run of steps of one sign that `index` starts.
    private func steepest(from index: Int, in steps: UnsafeBufferPointer<Double>) -> Int {
        var peak = index
        while peak + 1 < steps.count, steps[peak + 1] * steps[peak] > steps[peak] * steps[peak] { peak += 1 }
        return peak
    }

    /// The line through most of `points`, refitted without outliers, if at least `minimumSupport` of
    /// the `samples` lie on it and it runs within `maximumTurn` of `along`.
    private func robustLine(through points: [SIMD2<Double>], samples: Int, along: SIMD2<Double>)
        -> (line: EdgeFitter.Line, inliers: [SIMD2<Double>])?
    {
        guard Double(points.count) >= minimumSupport * Double(samples), var line = EdgeFitter.line(through: points) else {
            return nil
        }
        var inliers = points
        for _ in 0..<3 {
            inliers = points.filter { edges.distance(from: $0, to: line) <= edges.inlierDistance }
            guard inliers.count >= 3, let refit = EdgeFitter.line(through: inliers) else { return nil }
            line = refit
        }
        guard abs((line.direction * along).sum()) >= cos(maximumTurn * .pi / 180),
            Double(inliers.count) >= minimumSupport * Double(samples)
        else { return nil }
        return (line, inliers)
    }

    /// The line through `start` and `end`.
    private static func line(from start: SIMD2<Double>, to end: SIMD2<Double>) -> EdgeFitter.Line {
        let vector = end - start
        return EdgeFitter.Line(point: start, direction: vector / (vector * vector).sum().squareRoot())
    }
}
