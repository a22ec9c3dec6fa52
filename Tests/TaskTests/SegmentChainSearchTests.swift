import Foundation
import Testing

@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// The joining of collinear pieces, on segments laid out by construction (their true lines known).
@Suite struct SegmentChainSearchTests {
    @Test func piecesOfOneLineAreJoinedAndOthersKept() throws {
        // A side broken twice along y = 10, a crossing side along x = 50, and a parallel line 30 px away.
        let side = [
            LineSegment(start: SIMD2(0, 10), end: SIMD2(40, 10)),
            LineSegment(start: SIMD2(55, 10), end: SIMD2(90, 10)),
            LineSegment(start: SIMD2(100, 10), end: SIMD2(160, 10)),
        ]
        let crossing = LineSegment(start: SIMD2(50, 0), end: SIMD2(50, 120))
        let parallel = LineSegment(start: SIMD2(0, 40), end: SIMD2(60, 40))
        let joined = SegmentChainSearch.joined([side[1], crossing, side[0], parallel, side[2]])
        #expect(joined.count == 3)
        let whole = try #require(joined.first { abs($0.start.y - 10) < 1e-9 && abs($0.end.y - 10) < 1e-9 })
        #expect(abs(min(whole.start.x, whole.end.x)) < 1e-9)
        #expect(abs(max(whole.start.x, whole.end.x) - 160) < 1e-9)
        #expect(joined.contains(crossing))
        #expect(joined.contains(parallel))
    }
}
