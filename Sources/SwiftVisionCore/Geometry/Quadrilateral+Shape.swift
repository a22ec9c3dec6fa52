import Foundation

extension Quadrilateral {
    /// Four points of a convex outline in any order, named by where they lie: the corner with the
    /// smallest x + y is the top left, the others follow clockwise (in top-left-origin pixels).
    ///
    /// Each point's angle about the centre is worked out once and the four are put in order by insertion,
    /// which keeps points of equal angle in their given order: the rectangle detector orders a thousand
    /// chains of segments on a busy photo, and sorting with the angles worked out in every comparison took
    /// 6,100 instructions a shape.
    public init(orderingCorners points: [CGPoint]) {
        precondition(points.count == 4, "a quadrilateral has 4 corners")
        let center = CGPoint(x: points.reduce(0) { $0 + $1.x } / 4, y: points.reduce(0) { $0 + $1.y } / 4)
        var clockwise = points.map { (point: $0, angle: atan2($0.y - center.y, $0.x - center.x)) }
        for index in 1..<4 {
            var place = index
            while place > 0, clockwise[index].angle < clockwise[place - 1].angle { place -= 1 }
            if place < index { clockwise.insert(clockwise.remove(at: index), at: place) }
        }
        var first = 0
        for index in 1..<4 where clockwise[index].point.x + clockwise[index].point.y < clockwise[first].point.x + clockwise[first].point.y {
            first = index
        }
        self.init(
            topLeft: clockwise[first].point, topRight: clockwise[(first + 1) % 4].point,
            bottomRight: clockwise[(first + 2) % 4].point, bottomLeft: clockwise[(first + 3) % 4].point)
    }

    /// The sides in order: top, right, bottom, left, each from its first to its second corner clockwise.
    public var sides: [(start: CGPoint, end: CGPoint)] {
        [(topLeft, topRight), (topRight, bottomRight), (bottomRight, bottomLeft), (bottomLeft, topLeft)]
    }

    /// The enclosed area (shoelace formula); 0 for a degenerate shape.
    public var area: Double {
        abs(sides.reduce(0.0) { $0 + Double($1.start.x * $1.end.y - $1.end.x * $1.start.y) }) / 2
    }

    /// Whether every corner turns the same way, so that the outline does not cross itself or bend in.
    public var isConvex: Bool {
        let turns = corners.indices.map { index -> Double in
            let a = corners[index], b = corners[(index + 1) % 4], c = corners[(index + 2) % 4]
            return Double((b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x))
        }
        return turns.allSatisfy { $0 > 0 } || turns.allSatisfy { $0 < 0 }
    }

    /// The inner angle at each corner (top left, top right, bottom right, bottom left) in degrees.
    public var cornerAngles: [Double] {
        let corners = corners
        return corners.indices.map { Self.innerAngle(of: corners, at: $0) }
    }

    /// Whether every inner angle is within `tolerance` degrees of a right angle (the angles of
    /// ``cornerAngles``, read only up to the first that is not).
    public func hasRightAngles(within tolerance: Double) -> Bool {
        let corners = corners
        return corners.indices.allSatisfy { abs(Self.innerAngle(of: corners, at: $0) - 90) <= tolerance }
    }

    /// The inner angle in degrees of the four `corners` at the one at `index`.
    private static func innerAngle(of corners: [CGPoint], at index: Int) -> Double {
        let corner = corners[index], previous = corners[(index + 3) % 4], next = corners[(index + 1) % 4]
        let a = (Double(previous.x - corner.x), Double(previous.y - corner.y))
        let b = (Double(next.x - corner.x), Double(next.y - corner.y))
        let cosine = (a.0 * b.0 + a.1 * b.1) / max(hypot(a.0, a.1) * hypot(b.0, b.1), .leastNonzeroMagnitude)
        return acos(min(max(cosine, -1), 1)) * 180 / .pi
    }

    /// Mean lengths of opposite sides: the width from the top and bottom, the height from the left and right.
    public var averageSideLengths: CGSize {
        let lengths = sides.map { hypot(Double($0.end.x - $0.start.x), Double($0.end.y - $0.start.y)) }
        return CGSize(width: (lengths[0] + lengths[2]) / 2, height: (lengths[1] + lengths[3]) / 2)
    }

    /// Whether `point` lies inside the quadrilateral (taken as convex, its corners in either winding),
    /// on its outline, or within `tolerance` of a side's line on the outside.
    public func contains(_ point: CGPoint, tolerance: Double = 0) -> Bool {
        // The side of the outline that the first side the point is clearly off puts it on; every other
        // side must put it there too, or within `tolerance` of its line.
        var sign = 0.0
        func agrees(_ a: CGPoint, _ b: CGPoint) -> Bool {
            let length = hypot(b.x - a.x, b.y - a.y)
            guard length > 0 else { return true }
            let offset = ((b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x)) / length
            if sign == 0, abs(offset) > tolerance { sign = offset > 0 ? 1 : -1 }
            return sign == 0 || offset * sign >= -tolerance
        }
        return agrees(topLeft, topRight) && agrees(topRight, bottomRight) && agrees(bottomRight, bottomLeft)
            && agrees(bottomLeft, topLeft)
    }

    /// The largest distance between a corner of this quadrilateral and the same corner of `other`.
    public func largestCornerDistance(to other: Quadrilateral) -> Double {
        // Corner by corner, with no arrays: the rectangle detector's duplicate check asks this of many
        // candidates that share a grid cell (7 % of the search on MIDV-500's 31_jpn_drvlic-4 through arrays).
        func distance(_ a: CGPoint, _ b: CGPoint) -> Double { hypot(Double(a.x - b.x), Double(a.y - b.y)) }
        return max(
            distance(topLeft, other.topLeft), distance(topRight, other.topRight), distance(bottomRight, other.bottomRight),
            distance(bottomLeft, other.bottomLeft))
    }

    /// Every corner moved by `transform`.
    public func applying(_ transform: (CGPoint) -> CGPoint) -> Quadrilateral {
        Quadrilateral(
            topLeft: transform(topLeft), topRight: transform(topRight), bottomRight: transform(bottomRight),
            bottomLeft: transform(bottomLeft))
    }
}
