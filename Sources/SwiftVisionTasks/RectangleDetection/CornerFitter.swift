import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Moves each corner of a fitted quadrilateral onto the outer edges near it.
///
/// A side fitted as one straight line misses the corners when the side is bent (a curled page) or
/// when the rough outline followed an inner line (a grid's first row inside a thick border). Near
/// each corner, the two adjoining sides are refitted over their halves next to that corner, to the
/// first strong step met going outwards from the fitted side; the corner is where those two local
/// lines meet.
struct CornerFitter {
    /// The fitter of the gray image, whose gray-level profiles are read.
    let edges: EdgeFitter
    /// How far outwards from a fitted side the outer edge is looked for, in pixels.
    let reach: Double
    /// The widest border line, in pixels, whose outer side is taken for the edge.
    let lineWidth: Double
    /// The smallest gray-level difference across two pixels that counts as a strong step.
    var strongStep = 25.0
    /// Steps farther than this from a local line, in pixels, are outliers.
    var inlierDistance = 1.5
    /// The largest angle, in degrees, between a local line and the fitted side.
    var maximumTurn = 4.0
    /// A local line counts when at least this share of its samples lies on it.
    var minimumSupport = 0.6

    /// `shape` with each corner moved to the meeting point of its sides' local outer edges, where
    /// both are clear; other corners stay.
    func refine(_ shape: Quadrilateral) -> Quadrilateral {
        let points = shape.corners.map { SIMD2<Double>($0) }
        let moved = (0..<4).map { index -> CGPoint in
            let corner = points[index], previous = points[(index + 3) % 4], next = points[(index + 1) % 4]
            // Sides run clockwise, so going from `previous` to `corner` the outside lies to the left.
            guard let incoming = outerLine(from: (previous + corner) / 2, to: corner),
                let outgoing = outerLine(from: corner, to: (corner + next) / 2),
                let meeting = incoming.intersection(with: outgoing),
                ((meeting - corner) * (meeting - corner)).sum().squareRoot() <= 1.5 * reach
            else { return shape.corners[index] }
            return CGPoint(x: meeting.x, y: meeting.y)
        }
        let refined = Quadrilateral(topLeft: moved[0], topRight: moved[1], bottomRight: moved[2], bottomLeft: moved[3])
        return refined.isConvex ? refined : shape
    }

    /// The line through the first strong step outwards of the clockwise side piece from `start` to
    /// `end`, if enough of the piece has one on a common line.
    private func outerLine(from start: SIMD2<Double>, to end: SIMD2<Double>) -> EdgeFitter.Line? {
        let vector = end - start
        let length = (vector * vector).sum().squareRoot()
        guard length >= 8 else { return nil }
        let along = vector / length
        let outward = SIMD2(along.y, -along.x)
        let count = Int(min(48, max(8, length / 3)))
        let offsets = Array(stride(from: -2, through: reach + 1, by: 0.5))
        var points: [SIMD2<Double>] = []
        for sample in 0..<count {
            let base = start + vector * (0.08 + 0.88 * (Double(sample) + 0.5) / Double(count))
            let levels = offsets.map { edges.profile(at: base + outward * $0, along: along) }
            let steps = (4..<levels.count).map { levels[$0] - levels[$0 - 4] }
            guard var step = steps.firstIndex(where: { abs($0) >= strongStep }) else { continue }
            // Up the step to its steepest point.
            while step + 1 < steps.count, steps[step + 1] * steps[step] > steps[step] * steps[step] { step += 1 }
            // A thick border line: its far side, a step back of the opposite sign close beyond it, is the outer edge.
            let far = steps.indices.dropFirst(step + 1).prefix(Int(2 * lineWidth)).filter {
                steps[$0] * steps[step] < 0 && abs(steps[$0]) >= strongStep
            }
            if let back = far.max(by: { abs(steps[$0]) < abs(steps[$1]) }) { step = back }
            points.append(base + outward * offsets[step + 2])
        }
        guard points.count >= max(4, count / 3), var line = EdgeFitter.line(through: points) else { return nil }
        var inliers = points
        for _ in 0..<3 {
            inliers = points.filter { edges.distance(from: $0, to: line) <= inlierDistance }
            guard inliers.count >= 3, let refit = EdgeFitter.line(through: inliers) else { return nil }
            line = refit
        }
        // A local line across the side, rather than along it, is clutter beyond the object.
        guard abs((line.direction * along).sum()) >= cos(maximumTurn * .pi / 180) else { return nil }
        return Double(inliers.count) / Double(count) >= minimumSupport ? line : nil
    }
}
