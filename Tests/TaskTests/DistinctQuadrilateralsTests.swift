import Foundation
import Testing

@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// Which shapes count as ones already kept: every corner strictly within the tolerance of the kept
/// shape's corresponding corner, the distances worked out by hand (3-4-5 triangles and a 45° step).
@Suite struct DistinctQuadrilateralsTests {
    /// A 100-pixel square with its top left at (`x`, `y`), one corner (0 top left … 3 bottom left) moved by `step`.
    static func square(x: Double = 10, y: Double = 10, moving corner: Int = 0, by step: CGPoint = .zero) -> Quadrilateral {
        var corners = [CGPoint(x: x, y: y), CGPoint(x: x + 100, y: y), CGPoint(x: x + 100, y: y + 100), CGPoint(x: x, y: y + 100)]
        corners[corner] = CGPoint(x: corners[corner].x + step.x, y: corners[corner].y + step.y)
        return Quadrilateral(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
    }

    @Test func shapesWithEveryCornerWithinTheToleranceAreLeftOut() {
        var kept = DistinctQuadrilaterals(tolerance: 5)
        let inserted = [
            kept.insert(Self.square()),
            // Every corner 4.9 px off: the same shape.
            kept.insert(Self.square(x: 10 + 4.9)),
            // One corner 3 across and 4 down, 5 px off: not strictly within, so kept; at 3 and 3.9 (4.92 px) left out.
            kept.insert(Self.square(moving: 2, by: CGPoint(x: 3, y: 4))),
            kept.insert(Self.square(moving: 3, by: CGPoint(x: 3, y: 3.9))),
        ]
        #expect(inserted == [true, false, true, false])
        // A top left in the next cell of the grid (x 12 → 16 crosses 15), every corner 4 px from the one kept; at 17, 5 px.
        var grid = DistinctQuadrilaterals(tolerance: 5)
        let acrossCells = [grid.insert(Self.square(x: 12)), grid.insert(Self.square(x: 16)), grid.insert(Self.square(x: 17))]
        #expect(acrossCells == [true, false, true])
        #expect(grid.shapes.count == 2)
    }
}
