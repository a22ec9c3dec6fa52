import CVisionShim
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

    /// The fast path's edges are, pixel for pixel, what OpenCV's cv::Canny gives at each threshold pair (the
    /// rectangle detector's pairs, the barcode finder's, and pairs given high first).
    @Test func fastCannyEqualsOpenCVsCanny() throws {
        let pairs: [(low: Double, high: Double)] = [(12, 36), (40, 120), (50, 150), (5, 20), (120, 40), (0, 255)]
        for (name, image) in try Self.grayImages() {
            for pair in pairs {
                let opencv = try image.cannyEdges(low: pair.low, high: pair.high)
                let fast = try image.fastCannyEdges(low: pair.low, high: pair.high)
                #expect(try Fixtures.packed(fast) == Fixtures.packed(opencv), "\(name) \(pair)")
                #expect(opencv.bytes.contains(255), "\(name): no edges at \(pair)")
            }
        }
    }

    /// One gradient for two threshold pairs: the first pair's edges and the second's, traced later from the
    /// kept maxima, are each pixel for pixel OpenCV's cv::Canny for that pair (the rectangle detector's strong
    /// and faint pairs, either way round, and pairs given high first).
    @Test func cannyPairEqualsOpenCVsCannyForBoth() throws {
        let pairs: [(first: (low: Double, high: Double), later: (low: Double, high: Double))] = [
            ((40, 120), (12, 36)), ((12, 36), (40, 120)), ((120, 40), (36, 12)), ((50, 150), (0, 255)),
        ]
        for (name, image) in try Self.grayImages() {
            for pair in pairs {
                let (edges, later) = try image.fastCannyEdges(low: pair.first.low, high: pair.first.high, later: pair.later)
                let first = try image.cannyEdges(low: pair.first.low, high: pair.first.high)
                let second = try image.cannyEdges(low: pair.later.low, high: pair.later.high)
                #expect(try Fixtures.packed(edges) == Fixtures.packed(first), "\(name) \(pair)")
                #expect(try Fixtures.packed(later.edges()) == Fixtures.packed(second), "\(name) \(pair) later")
                #expect(first.bytes.contains(255) && second.bytes.contains(255), "\(name): no edges at \(pair)")
            }
        }
    }

    @Test func cannyPairRefusesColourImages() throws {
        let colour = try Fixtures.image("chelsea.png").buffer
        #expect(throws: ImageError.self) { try colour.fastCannyEdges(low: 40, high: 120, later: (12, 36)) }
    }

    @Test func fastCannyRefusesColourImages() throws {
        let colour = try Fixtures.image("chelsea.png").buffer
        #expect(throws: ImageError.self) { try colour.fastCannyEdges(low: 12, high: 36) }
    }

    /// The adaptive threshold by running block sums (blocks up to 99 wide) is, pixel for pixel, OpenCV's
    /// cv::adaptiveThreshold, which the imaging library calls for a destination that is the source itself.
    @Test func adaptiveThresholdEqualsOpenCVs() throws {
        for (name, image) in try Self.grayImages() {
            for block in [3, 31, 51, 99] {
                for offset in [6, -2.5, 0.5] {
                    for inverted in [false, true] {
                        var opencv = image
                        try opencv.withMutableView { view in
                            try shimCall { sv_adaptive_threshold(view, view, Int32(block), offset, inverted ? 1 : 0) }
                        }
                        let ours = try image.adaptiveThreshold(blockSize: block, offset: offset, inverted: inverted)
                        #expect(try Fixtures.packed(ours) == Fixtures.packed(opencv), "\(name) block \(block) \(offset) \(inverted)")
                        #expect(try Set(Fixtures.packed(opencv)) == [0, 255], "\(name): one level only")
                    }
                }
            }
        }
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

    /// Outlines and their simplifications are OpenCV's (cv2.findContours with simple chain approximation and
    /// cv2.approxPolyDP, Tests/Python/Reference/contours_reference.py), on the maps the rectangle detector traces
    /// in real photos (dilated strong edges, faint edges, the adaptive threshold, a gray cut): the same outlines
    /// in the same order with the same points, all of them and the outermost only, and the same simplifications.
    @Test func contoursAndSimplificationsEqualOpenCVs() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var maps: [String: PixelBuffer] = [:]
        for name in ["sudoku.png", "chelsea.png", "coffee.png", "bus.jpg"] {
            let smooth = try Fixtures.image(name).uprightGray().blurred(sigma: 1)
            let block = max(15, min(smooth.width, smooth.height) / 12)
            let kinds = [
                ("strong", try smooth.cannyEdges(low: 40, high: 120).morphology(.dilate, size: 3)),
                ("faint", try smooth.cannyEdges(low: 12, high: 36)),
                ("adaptive", try smooth.adaptiveThreshold(blockSize: block, offset: 6, inverted: true)),
                ("cut", try smooth.thresholded(at: 128)),
            ]
            for (kind, map) in kinds {
                let file = folder.appendingPathComponent("\(name)-\(kind).png")
                try VisionImage(buffer: map).write(to: file)
                maps[file.path] = map
            }
        }
        let output = try Fixtures.referenceOutput("contours_reference.py", maps.keys.sorted())
        let reports = Fixtures.jsonLines(String(decoding: output, as: UTF8.self))
        #expect(reports.count == maps.count)
        func flat(_ polygons: [PixelPolygon]) -> [[Int]] { polygons.map { $0.points.flatMap { [Int($0.x), Int($0.y)] } } }
        for report in reports {
            let file = try #require(report["file"] as? String)
            let map = try #require(maps[file])
            let name = URL(fileURLWithPath: file).lastPathComponent
            let all = try #require(report["all"] as? [[Int]])
            let outlines = try map.contours()
            #expect(all.count >= 20, "\(name): OpenCV found \(all.count) outlines")
            #expect(flat(outlines) == all, "\(name): \(outlines.count) outlines against OpenCV's \(all.count)")
            #expect(try flat(map.contours(outerOnly: true)) == report["outermost"] as? [[Int]], "\(name): outermost outlines")
            let simplified = try #require(report["simplified"] as? [String: [[Int]]])
            #expect(simplified.count == 2)
            for (tolerance, polygons) in simplified {
                let ours = try outlines.map { try $0.simplified(epsilon: try #require(Double(tolerance))) }
                #expect(flat(ours) == polygons, "\(name): simplified within \(tolerance) px")
            }
        }
    }

    /// A colour buffer has no outlines to trace, and a negative tolerance simplifies nothing: both are refused.
    @Test func colourMapsAndNegativeTolerancesAreRefused() throws {
        let colour = try Fixtures.image("chelsea.png").buffer
        #expect(throws: ImageError.self) { try colour.contours() }
        let square = PixelPolygon(points: [SIMD2(0, 0), SIMD2(10, 0), SIMD2(10, 10), SIMD2(0, 10)])
        #expect(throws: ImageError.self) { try square.simplified(epsilon: -1) }
    }
}
