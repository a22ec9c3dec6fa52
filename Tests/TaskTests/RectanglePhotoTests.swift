import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore

/// Rectangles in real photographs (from Debian's opencv-doc), against corners marked by hand.
///
/// The marks were read by eye, not from any detector: each corner's neighbourhood was enlarged
/// eight times with a grid every 10 pixels and ticks every 2, and the corner read off as the
/// meeting point of the outer edges (±2 px). Where a corner is hidden (the sheet's top right, under
/// a stone), two points on each of its sides were read and the sides extended to meet.
@Suite struct RectanglePhotoTests {
    /// Photo, and its outer corners: top left, top right, bottom right, bottom left, in pixels.
    static let marked: [(String, [CGPoint])] = [
        // The front of a cookie box, nearly filling the frame.
        ("box.png", [CGPoint(x: 3, y: 3), CGPoint(x: 321, y: 6.5), CGPoint(x: 321, y: 221), CGPoint(x: 1.5, y: 220)]),
        // A sheet of paper on a table, its top right corner under a stone.
        ("singlemarkersoriginal.jpg",
         [CGPoint(x: 121, y: 125.5), CGPoint(x: 518, y: 130.7), CGPoint(x: 636, y: 431), CGPoint(x: 5.5, y: 422)]),
        // A newspaper sudoku whose page curls (issue 13): the outside of the grid's thick border.
        ("sudoku.png", [CGPoint(x: 72, y: 85), CGPoint(x: 493, y: 69), CGPoint(x: 520, y: 521), CGPoint(x: 36, y: 518)]),
    ]

    @Test(arguments: marked)
    func cornersLieOnTheOuterBorder(name: String, corners: [CGPoint]) throws {
        let error = try Self.largestCornerError(name, corners)
        #expect(error <= 0.01, "\(name): corners off by \(100 * error) % of the diagonal")
    }

    /// The largest distance between the best rectangle's corners and the marked `corners`, as a fraction
    /// of the image's diagonal.
    static func largestCornerError(_ name: String, _ corners: [CGPoint]) throws -> Double {
        let image = try Fixtures.image(name)
        let truth = Quadrilateral(topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
        let best = try #require(try RectangleDetector().results(in: image).first, "nothing found in \(name)")
        let diagonal = (Double(image.width * image.width + image.height * image.height)).squareRoot()
        return best.corners.largestCornerDistance(to: truth) / diagonal
    }
}
