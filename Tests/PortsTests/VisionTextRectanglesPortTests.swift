import Foundation
import SwiftVisionTestSupport
import Testing
import Vision

/// `VNDetectTextRectanglesRequest` in the shape of Apple's "Detecting Objects in Still Images" sample: a request
/// with `reportCharacterBoxes`, performed by a `VNImageRequestHandler(url:options:)`, whose results are cast to
/// `VNTextObservation`s. Truth: Tesseract's test page phototest.tif and its published text (phototest.txt beside
/// it in eval/data/text): eight lines of text, in two paragraphs, with the words each line holds.
@Suite struct VisionTextRectanglesPortTests {
    static let folder = Fixtures.packageRoot.appendingPathComponent("eval/data/text")

    @Test func findsOneObservationPerLineOfTheTestPage() throws {
        let truth = try String(contentsOf: Self.folder.appendingPathComponent("phototest.txt"), encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: " ") }.filter { !$0.isEmpty }
        #expect(truth.count == 8)

        var observations: [VNTextObservation]?
        let request = VNDetectTextRectanglesRequest { request, error in
            #expect(error == nil)
            observations = request.results as? [VNTextObservation]
        }
        #expect(!request.reportCharacterBoxes && request.revision == VNDetectTextRectanglesRequestRevision1)
        request.reportCharacterBoxes = true
        try VNImageRequestHandler(url: Self.folder.appendingPathComponent("phototest.tif"), options: [:]).perform([request])
        let lines = try #require(observations)
        #expect(lines.count == truth.count, "\(lines.map(\.boundingBox))")

        let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
        for (index, line) in lines.enumerated() {
            #expect(VisionRequestPortTests.encloses(unit, line.boundingBox) && line.boundingBox.width > 0 && line.boundingBox.height > 0)
            // Vision's coordinates: origin at the lower left, so the page's lines come down from the top.
            if index > 0 { #expect(line.boundingBox.midY < lines[index - 1].boundingBox.minY, "line \(index)") }
            let boxes = try #require(line.characterBoxes)
            if index < truth.count { #expect(boxes.count == truth[index].count, "line \(index): \(truth[index])") }
            #expect(boxes.allSatisfy { VisionRequestPortTests.encloses(line.boundingBox, $0.boundingBox) }, "line \(index)")
        }
        // The blank line between the paragraphs (after the third line) is the widest gap.
        let gaps = zip(lines, lines.dropFirst()).map { $0.boundingBox.minY - $1.boundingBox.maxY }
        #expect(gaps.firstIndex(of: gaps.max() ?? 0) == 2, "\(gaps)")

        let plain = VNDetectTextRectanglesRequest()
        try VNImageRequestHandler(url: Self.folder.appendingPathComponent("phototest.tif"), options: [:]).perform([plain])
        #expect((plain.results as? [VNTextObservation])?.allSatisfy { $0.characterBoxes == nil } == true)
    }
}
