import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// The search that ends at the strong edges' outlines when they decide the report
/// (`RectangleEngine.isDecided(_:imageArea:)`), against the document corners MIDV-500 publishes
/// (eval/data/rectangles/truth.json, eval/README.md "Rectangles").
@Suite struct RectangleStagedSearchTests {
    static let folder = Fixtures.packageRoot.appendingPathComponent("eval/data/rectangles")

    /// MIDV-500 frames whose card the strong edges' outlines find surely and large enough to decide
    /// (14_deu_id_new-7's 0.89 sure).
    static let decidedFrames = ["02_aut_drvlic_new-5.jpg", "10_cze_id-5.jpg", "14_deu_id_new-7.jpg", "34_mda_passport-8.jpg"]

    @Test(arguments: decidedFrames)
    func strongEdgesDecideTheCardOnItsPublishedCorners(name: String) throws {
        let truth = try JSONDecoder().decode([String: [[Double]]].self, from: Data(contentsOf: Self.folder.appendingPathComponent("truth.json")))
        let marked = try #require(truth[name]).map { CGPoint(x: $0[0], y: $0[1]) }
        let engine = RectangleEngine()
        let image = try VisionImage(contentsOfFile: Self.folder.appendingPathComponent(name).path)
        let found = try engine.results(in: image)
        let card = try #require(found.first, "nothing found in \(name)")
        #expect(engine.isDecided(found, imageArea: Double(image.width * image.height)), "\(name): \(card.confidence)")
        // MIDV-500 marks the corners from the document's top left, which a detector cannot tell.
        let error = card.corners.largestCornerDistance(toAnyOrderOf: Quadrilateral(topLeft: marked[0], topRight: marked[1], bottomRight: marked[2], bottomLeft: marked[3]))
        #expect(error <= 2.5, "\(name): corners \(card.corners.corners) off by \(error) px")
    }

    @Test func onlyLargeSureReportsThatFillTheRequestAreDecided() {
        let area = 1000.0 * 1000
        // A square covering `share` of the image, at `confidence`.
        func square(_ share: Double, _ confidence: Float) -> DetectedRectangle {
            let side = (share * area).squareRoot()
            return DetectedRectangle(
                corners: Quadrilateral(
                    topLeft: CGPoint(x: 10, y: 10), topRight: CGPoint(x: 10 + side, y: 10),
                    bottomRight: CGPoint(x: 10 + side, y: 10 + side), bottomLeft: CGPoint(x: 10, y: 10 + side)),
                confidence: confidence)
        }
        let one = RectangleEngine()
        #expect(one.isDecided([square(0.3, 0.95)], imageArea: area))
        // Small: a card's photo may be surer than the card around it.
        #expect(!one.isDecided([square(0.1, 0.95)], imageArea: area))
        // At the confidence that settles a report without line segments, or above it.
        #expect(one.isDecided([square(0.3, 0.88)], imageArea: area))
        #expect(one.isDecided([square(0.3, 0.85)], imageArea: area))
        // Below the confidence, or nothing found.
        #expect(!one.isDecided([square(0.3, 0.84)], imageArea: area))
        #expect(!one.isDecided([], imageArea: area))
        // Fewer than asked for, or every rectangle asked for.
        #expect(!RectangleEngine(options: .init(maximumObservations: 2)).isDecided([square(0.3, 0.95)], imageArea: area))
        #expect(!RectangleEngine(options: .init(maximumObservations: 0)).isDecided([square(0.3, 0.95)], imageArea: area))
    }
}
