import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore

/// The edge maps and outlines the rectangle detector searches, against OpenCV's own calls.
@Suite struct EdgeMapTests {
    /// Gray copies of real photos, as the detector searches them (blurred) and as read (sharp, where
    /// texture leaves far more edges), at an odd size too.
    static func grayImages() throws -> [(name: String, buffer: PixelBuffer)] {
        var images: [(String, PixelBuffer)] = []
        for name in ["sudoku.png", "chelsea.png", "coffee.png", "bus.jpg"] {
            let gray = try Fixtures.image(name).uprightGray()
            let odd = try gray.resized(width: gray.width * 2 / 3 + 1, height: gray.height * 2 / 3)
            images += [(name, gray), ("\(name) blurred", try gray.blurred(sigma: 1)), ("\(name) \(odd.width)×\(odd.height)", odd)]
        }
        return images
    }

    /// The pair of edge maps, and the map of one pair alone by the same path, are, pixel for pixel, what
    /// OpenCV's cv::Canny gives at each threshold pair (the rectangle detector's pairs, the barcode
    /// finder's, and pairs given high first).
    @Test func cannyPairEqualsTwoCannyCalls() throws {
        let pairs: [((low: Double, high: Double), (low: Double, high: Double))] = [
            ((12, 36), (40, 120)), ((50, 150), (5, 20)), ((120, 40), (0, 255)),
        ]
        for (name, image) in try Self.grayImages() {
            for (first, second) in pairs {
                let edges = try image.cannyEdges(first, second)
                let firstAlone = try image.cannyEdges(low: first.low, high: first.high)
                let secondAlone = try image.cannyEdges(low: second.low, high: second.high)
                #expect(try Fixtures.packed(edges.first) == Fixtures.packed(firstAlone), "\(name) \(first)")
                #expect(try Fixtures.packed(edges.second) == Fixtures.packed(secondAlone), "\(name) \(second)")
                #expect(try Fixtures.packed(image.cannyEdges(second)) == Fixtures.packed(secondAlone), "\(name) \(second) alone")
                #expect(firstAlone.bytes.contains(255), "\(name): no edges at \(first)")
            }
        }
    }

    @Test func cannyPairRefusesColourImages() throws {
        let colour = try Fixtures.image("chelsea.png").buffer
        #expect(throws: ImageError.self) { try colour.cannyEdges((low: 12, high: 36), (low: 40, high: 120)) }
    }

    /// Outlines kept by their bounds and point count are those of all outlines that pass the same test,
    /// in the same order.
    @Test(arguments: [false, true])
    func contoursKeptByBoundsAreTheFilteredOutlines(outerOnly: Bool) throws {
        for (name, image) in try Self.grayImages() {
            let edges = try image.cannyEdges(low: 12, high: 36).morphology(.dilate, size: 3)
            func isKept(_ bounds: CGRect, _ pointCount: Int) -> Bool { pointCount >= 4 && min(bounds.width, bounds.height) > 40 }
            let all = try edges.contours(outerOnly: outerOnly)
            let kept = try edges.contours(outerOnly: outerOnly, keeping: isKept)
            #expect(kept == all.filter { isKept($0.bounds, $0.points.count) }, "\(name)")
            #expect(!kept.isEmpty && kept.count < all.count, "\(name): \(kept.count) of \(all.count) kept")
        }
    }
}
