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
                for index in cells[cell &+ SIMD2(dx, dy)] ?? [] where isNear(shapes[index], shape) {
                    return false
                }
            }
        }
        cells[cell, default: []].append(shapes.count)
        shapes.append(shape)
        return true
    }

    /// Whether every corner of `kept` lies within `tolerance` of the corresponding corner of `shape`: what
    /// `kept.largestCornerDistance(to: shape) < tolerance` tells, corner by corner with no arrays and ending
    /// at the first corner too far. Chains of segments share corners, so many candidates fall in one cell:
    /// on MIDV-500 frame 31_jpn_drvlic-4, comparing them through arrays took 7 % of the search.
    private func isNear(_ kept: Quadrilateral, _ shape: Quadrilateral) -> Bool {
        func near(_ a: CGPoint, _ b: CGPoint) -> Bool { hypot(Double(a.x - b.x), Double(a.y - b.y)) < tolerance }
        return near(kept.topLeft, shape.topLeft) && near(kept.topRight, shape.topRight)
            && near(kept.bottomRight, shape.bottomRight) && near(kept.bottomLeft, shape.bottomLeft)
    }

    /// The grid cell of `point`: points less than `tolerance` apart lie in the same or neighbouring cells.
    private func cell(of point: CGPoint) -> SIMD2<Int> {
        SIMD2(Int((Double(point.x) / tolerance).rounded(.down)), Int((Double(point.y) / tolerance).rounded(.down)))
    }
}
