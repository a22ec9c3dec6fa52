import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// The corner fit's reuse of the outer edges it found, on a real photo (Debian opencv-doc's sudoku page,
/// whose curled sides and thick printed frame make the corner fit move every corner).
@Suite struct CornerFitterTests {
    /// The outer corners of the grid's frame, marked by hand (``RectanglePhotoTests/marked``), moved 4 pixels
    /// towards the page's centre: a fit on the inner edge of the frame, which the corner fit moves outwards.
    static let page: Quadrilateral = {
        let marked = RectanglePhotoTests.marked.first { $0.0 == "sudoku.png" }!.1
        let centre = marked.reduce(CGPoint.zero) { CGPoint(x: $0.x + $1.x / 4, y: $0.y + $1.y / 4) }
        let inner = marked.map { corner -> CGPoint in
            let dx = centre.x - corner.x, dy = centre.y - corner.y, length = hypot(dx, dy)
            return CGPoint(x: corner.x + 4 * dx / length, y: corner.y + 4 * dy / length)
        }
        return Quadrilateral(topLeft: inner[0], topRight: inner[1], bottomRight: inner[2], bottomLeft: inner[3])
    }()

    static func fitter() throws -> CornerFitter {
        CornerFitter(edges: EdgeFitter(image: GrayLevels(try Fixtures.image("sudoku.png").uprightGray())))
    }

    /// `shape` with every corner moved by `offset` pixels right and down.
    static func moved(_ shape: Quadrilateral, by offset: Double) -> Quadrilateral {
        shape.applying { CGPoint(x: $0.x + offset, y: $0.y + offset) }
    }

    @Test func aNearCopyTakesTheEdgesAlreadyFound() throws {
        let fitter = try Self.fitter()
        let first = try fitter.refine(Self.page)
        #expect(fitter.piecesRead == 8, "two pieces per corner")
        #expect(first.largestCornerDistance(to: Self.page) > 1, "the corners move outwards: \(first)")
        let copy = Self.moved(Self.page, by: CornerFitter.sharedEnds / 2)
        let reused = try fitter.refine(copy)
        #expect(fitter.piecesRead == 8, "a copy within the tolerance reads nothing more")
        let fresh = try Self.fitter().refine(copy)
        #expect(reused.largestCornerDistance(to: fresh) <= 0.5, "reused \(reused), fresh \(fresh)")
    }

    @Test func aShapeFartherOffIsReadAgain() throws {
        let fitter = try Self.fitter()
        _ = try fitter.refine(Self.page)
        let other = Self.moved(Self.page, by: 1)
        let refined = try fitter.refine(other)
        #expect(fitter.piecesRead == 16)
        #expect(refined.largestCornerDistance(to: try Self.fitter().refine(other)) == 0, "read afresh, the same corners")
    }
}
