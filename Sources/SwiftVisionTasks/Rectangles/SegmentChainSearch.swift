import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Rough quadrilaterals assembled from straight edge segments: chains of segments that meet near
/// their ends at roughly right angles. Four segments closing a loop give a quadrilateral; three give
/// one whose fourth side joins the free ends, for a side too faint or hidden to be detected.
///
/// Collinear pieces are also joined, so that a side broken by clutter or an occluding object can
/// count as one segment; the pieces stay candidates too, since a join may run past a corner.
struct SegmentChainSearch {
    /// Segments at least this long take part, in pixels.
    let minimumLength: Double
    /// Adjacent sides meet at no less than this angle, in degrees (and no more than 180° minus it).
    let minimumAngle: Double
    /// At most this many of the longest segments are chained, which bounds the work on busy photos.
    static let segmentLimit = 150

    func candidates(from detected: [LineSegment]) -> [Quadrilateral] {
        let pieces = detected.filter { $0.length >= minimumLength / 3 }
        // A piece joined to nothing comes back unchanged; its ends tell it (SIMD4 hashes as `==` compares).
        let pieceEnds = Set(pieces.map { SIMD4($0.start.x, $0.start.y, $0.end.x, $0.end.y) })
        let joined = Self.joined(pieces).filter { !pieceEnds.contains(SIMD4($0.start.x, $0.start.y, $0.end.x, $0.end.y)) }
        let segments = (pieces + joined).map { (segment: $0, length: $0.length) }.filter { $0.length >= minimumLength }
            .sorted { $0.length > $1.length }.prefix(Self.segmentLimit).map(\.segment)
        // corners[2 × i + e]: the corners at end e (0 start, 1 end) of segment i, as (segment, end, point).
        var corners = [[(segment: Int, end: Int, point: SIMD2<Double>)]](repeating: [], count: 2 * segments.count)
        let cosine = cos(minimumAngle * .pi / 180)
        for i in segments.indices {
            for j in segments.indices where j > i {
                guard abs((segments[i].direction * segments[j].direction).sum()) <= cosine,
                    let point = segments[i].intersection(with: segments[j]),
                    let endI = Self.end(of: segments[i], nearestTo: point),
                    let endJ = Self.end(of: segments[j], nearestTo: point)
                else { continue }
                corners[2 * i + endI].append((j, endJ, point))
                corners[2 * j + endJ].append((i, endI, point))
            }
        }
        var shapes: [Quadrilateral] = []
        for i in segments.indices {
            for endI in 0..<2 {
                for first in corners[2 * i + endI] where first.segment > i {
                    for second in corners[2 * first.segment + 1 - first.end] where second.segment != i {
                        let k = second.segment
                        // Three sides i, j, k: the fourth joins the free ends of i and k.
                        let freeI = endI == 0 ? segments[i].end : segments[i].start
                        let freeK = second.end == 0 ? segments[k].end : segments[k].start
                        shapes.append(Self.shape([freeI, first.point, second.point, freeK]))
                        for third in corners[2 * k + 1 - second.end]
                        where third.segment != i && third.segment != first.segment {
                            if let closing = corners[2 * third.segment + 1 - third.end].first(where: {
                                $0.segment == i && $0.end == 1 - endI
                            }) {
                                shapes.append(Self.shape([first.point, second.point, third.point, closing.point]))
                            }
                        }
                    }
                }
            }
        }
        return shapes.filter(\.isConvex)
    }

    private static func shape(_ points: [SIMD2<Double>]) -> Quadrilateral {
        Quadrilateral(orderingCorners: points.map { CGPoint(x: $0.x, y: $0.y) })
    }

    /// Which end of `segment` a corner at `point` belongs to, if the point lies near that end: up to
    /// a fifth of the segment inside it, or up to half its length (at least 15 pixels) beyond it.
    private static func end(of segment: LineSegment, nearestTo point: SIMD2<Double>) -> Int? {
        let length = segment.length, position = segment.position(of: point)
        let (end, beyond) = position <= length / 2 ? (0, -position) : (1, position - length)
        guard beyond >= -0.2 * length, beyond <= max(0.5 * length, 15) else { return nil }
        return end
    }

    /// Segments with pieces on the same line joined into one: within 3° of each other, each end of
    /// the shorter within 2 pixels (plus 3 % of the gap) of the longer one's line, and a gap shorter
    /// than half their lengths together. The joined segment follows the line through all four ends.
    static func joined(_ segments: [LineSegment]) -> [LineSegment] {
        // Each pending segment with its direction and length, worked out once: the direction test,
        // the cheapest, comes first. Longest first; one taken into a line is marked rather than removed,
        // since removing moves every later one (most of the join's time on the LSD frames of MIDV-500).
        let pending = segments.map { (segment: $0, direction: $0.direction, length: $0.length) }.sorted { $0.length > $1.length }
        var taken = [Bool](repeating: false, count: pending.count)
        var result: [LineSegment] = []
        let cosine = cos(3 * Double.pi / 180)
        for first in pending.indices where !taken[first] {
            var line = pending[first].segment
            var ends = [line.start, line.end]
            var (direction, length) = (line.direction, line.length)
            while let index = pending.indices[(first + 1)...].first(where: { index in
                guard !taken[index] else { return false }
                let other = pending[index]
                guard abs((direction * other.direction).sum()) >= cosine else { return false }
                let a = ((other.segment.start - line.start) * direction).sum()
                let b = ((other.segment.end - line.start) * direction).sum()
                let gap = max(min(a, b) - length, -max(a, b))
                let tolerance = 2 + 0.03 * max(gap, 0)
                func offset(_ point: SIMD2<Double>) -> Double {
                    let v = point - line.start
                    return v.x * direction.y - v.y * direction.x
                }
                return abs(offset(other.segment.start)) <= tolerance && abs(offset(other.segment.end)) <= tolerance
                    && gap <= (length + other.length) / 2
            }) {
                taken[index] = true
                let other = pending[index].segment
                ends += [other.start, other.end]
                guard let fitted = EdgeFitter.line(through: ends) else { continue }
                let positions = ends.map { (($0 - fitted.point) * fitted.direction).sum() }
                line = LineSegment(
                    start: fitted.point + fitted.direction * positions.min()!,
                    end: fitted.point + fitted.direction * positions.max()!)
                (direction, length) = (line.direction, line.length)
            }
            result.append(line)
        }
        return result
    }
}
