import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// The side fit's order and early end, on a real photo (Debian opencv-doc's sudoku page, its grid's frame
/// marked by hand in ``RectanglePhotoTests/marked``).
@Suite struct EdgeFitterTests {
    static func fitter() throws -> EdgeFitter {
        EdgeFitter(image: GrayLevels(try Fixtures.image("sudoku.png").uprightGray()))
    }

    /// The hand-marked frame of the grid.
    static let marked: Quadrilateral = {
        let corners = RectanglePhotoTests.marked.first { $0.0 == "sudoku.png" }!.1
        return Quadrilateral(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
    }()

    @Test func theSidesGiveTheSameFitInAnyOrder() throws {
        let fitter = try Self.fitter()
        let fit = try #require(try fitter.refine(CornerFitterTests.page, radius: 6))
        // The page is curled: straight sides meet up to 12 pixels off its marked corners (the corner fit moves them).
        #expect(fit.shape.largestCornerDistance(to: Self.marked) <= 15, "on the grid's frame: \(fit.shape)")
        #expect(fit.support.allSatisfy { $0 >= 0.5 }, "every side on a clear edge for over half its length: \(fit.support)")
        for order in [[3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]] {
            let reordered = try #require(try fitter.refine(CornerFitterTests.page, radius: 6, sideOrder: order))
            #expect(reordered.shape.corners == fit.shape.corners, "order \(order)")
            #expect(reordered.support == fit.support && reordered.overrun == fit.overrun, "order \(order)")
        }
    }

    @Test func aFitEndsOnceItsSidesRuleOutTheConfidenceAsked() throws {
        let fitter = try Self.fitter()
        let fit = try #require(try fitter.refine(CornerFitterTests.page, radius: 6))
        let weakest = try #require(fit.support.indices.min { fit.support[$0] < fit.support[$1] })
        let order = [weakest] + (0..<4).filter { $0 != weakest }
        var asked: [Double] = []
        // A confidence above what the weakest side alone leaves possible: no other side is fitted.
        let above = pow(fit.support[weakest], 0.25).nextUp
        let refused = try fitter.refine(CornerFitterTests.page, radius: 6, sideOrder: order) { bound in
            asked.append(bound)
            return bound >= above
        }
        #expect(refused == nil)
        #expect(asked.count == 1, "one side fitted: \(asked)")
        // A confidence the fit reaches: every side is fitted and the fit is the same.
        asked = []
        let kept = try fitter.refine(CornerFitterTests.page, radius: 6, sideOrder: order) { bound in
            asked.append(bound)
            return bound >= fit.confidence - 1e-9
        }
        #expect(kept?.shape.corners == fit.shape.corners)
        #expect(asked.count == 4 && asked == asked.sorted(by: >), "bounds fall as sides are fitted: \(asked)")
    }

    @Test func theWideFitGivesTheFullFitsShapeAndSupportOncePerSide() throws {
        let fitter = try Self.fitter()
        var sideFits = EdgeFitter.SideFits(radius: 6)
        let first = try #require(try fitter.refineSides(CornerFitterTests.page, reusing: &sideFits))
        let again = try #require(try fitter.refineSides(CornerFitterTests.page, reusing: &sideFits))
        let full = try #require(try fitter.refine(CornerFitterTests.page, radius: 6))
        #expect(first.shape.corners == full.shape.corners && first.support == full.support)
        #expect(again.shape.corners == first.shape.corners && again.support == first.support)
    }
}
