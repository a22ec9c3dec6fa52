import Foundation
import SwiftVisionCore

/// Quadrilaterals in the order added, leaving out each whose corners all lie within `tolerance` of
/// the corresponding corners of one kept before. A grid on the top-left corners, `tolerance` wide,
/// finds the few kept ones near enough to compare, so thousands of candidates stay fast.
struct DistinctQuadrilaterals {
    /// How close every corner must be for a shape to count as one already kept, in pixels.
    let tolerance: Double
    /// The shapes kept, in the order added.
    private(set) var shapes: [Quadrilateral] = []
    /// The indices in `shapes` of those whose top-left corner lies in each grid cell.
    private var cells: [SIMD2<Int>: [Int]] = [:]

    /// An empty collection comparing corners within `tolerance`.
    init(tolerance: Double) {
        self.tolerance = tolerance
    }

    /// Keeps `shape` unless it lies within `tolerance` of one kept; whether it was kept.
    @discardableResult
    mutating func insert(_ shape: Quadrilateral) -> Bool {
        let cell = self.cell(of: shape.topLeft)
        for dx in -1...1 {
            for dy in -1...1 {
                for index in cells[cell &+ SIMD2(dx, dy)] ?? [] where isCopy(shapes[index], of: shape) {
                    return false
                }
            }
        }
        cells[cell, default: []].append(shapes.count)
        shapes.append(shape)
        return true
    }

    /// Whether every corner of `kept` lies less than `tolerance` from the same corner of `shape`, by their
    /// squared distances, the first corner too far ending the test: the outline and chain searches compare
    /// thousands of pairs (4,739 on the MIDV-500 frame 31_jpn_drvlic-4), and four square roots a pair
    /// took a million instructions there.
    private func isCopy(_ kept: Quadrilateral, of shape: Quadrilateral) -> Bool {
        let limit = tolerance * tolerance
        func near(_ a: CGPoint, _ b: CGPoint) -> Bool {
            let dx = Double(a.x - b.x), dy = Double(a.y - b.y)
            return dx * dx + dy * dy < limit
        }
        return near(kept.topLeft, shape.topLeft) && near(kept.topRight, shape.topRight)
            && near(kept.bottomRight, shape.bottomRight) && near(kept.bottomLeft, shape.bottomLeft)
    }

    /// The grid cell of `point`: points less than `tolerance` apart lie in the same or neighbouring cells.
    private func cell(of point: CGPoint) -> SIMD2<Int> {
        SIMD2(Int((Double(point.x) / tolerance).rounded(.down)), Int((Double(point.y) / tolerance).rounded(.down)))
    }
}
