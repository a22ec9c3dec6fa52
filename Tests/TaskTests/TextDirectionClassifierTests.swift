import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// PaddleOCR's text direction classifier (`ppocr_mobile_v2_text_direction.tflite`) on words of ICDAR 2015 photos cut
/// out along their published quadrilaterals (eval/data/scenetext/truth.json), and the text engine on those photos
/// turned half a turn.
@Suite struct TextDirectionClassifierTests {
    /// The photo `name` of eval/data/scenetext.
    static func photo(_ name: String) throws -> VisionImage {
        try VisionImage(contentsOfFile: TextLineRecognizerTests.folder.appendingPathComponent(name).path)
    }

    /// `image` turned half a turn, as a plain upright image.
    static func halfTurned(_ buffer: PixelBuffer) throws -> PixelBuffer {
        try VisionImage(buffer: buffer, orientation: .down).upright().buffer
    }

    /// Its probabilities are those of rapidocr's own preprocessing and onnxruntime on the wheel's ONNX file
    /// (Tests/Python/Reference/text_direction_reference.py) within 1e-4 on the same 28 crops (14 words upright and
    /// turned; seen: 2.3e-5), and it turns exactly the crops that rapidocr turns. 24 of the 28 come out the way they
    /// were turned.
    @Test func matchesRapidOCRsClassifier() throws {
        let classifier = try TextDirectionClassifier(
            url: Fixtures.model(TextDirectionClassifier.defaultModelName), store: .shared)
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (index, word) in try TextLineRecognizerTests.words().enumerated() {
            for (side, crop) in try [("up", word.crop), ("down", Self.halfTurned(word.crop))] {
                let url = folder.appendingPathComponent("word\(index)_\(side).png")
                try VisionImage(buffer: crop).write(to: url)
                paths.append(url.path)
            }
        }
        let reference = try #require(
            try JSONSerialization.jsonObject(with: Fixtures.referenceOutput("text_direction_reference.py", paths))
                as? [[String: Any]])
        #expect(reference.count == paths.count && paths.count >= 20)
        var rightWay = 0
        for (path, expected) in zip(paths, reference) {
            let direction = try classifier.direction(of: VisionImage(contentsOfFile: path).buffer)
            let probabilities = try #require(expected["probabilities"] as? [Double])
            #expect(
                abs(Double(direction.upsideDownProbability) - probabilities[1]) <= 1e-4,
                "\(path): \(direction.upsideDownProbability) against \(probabilities)")
            #expect(direction.isUpsideDown == (expected["turned"] as? Bool), "\(path): \(direction) against \(expected)")
            if (direction.upsideDownProbability > 0.5) == path.hasSuffix("_down.png") { rightWay += 1 }
        }
        // The crops are real lines it can tell: most come out as they were turned.
        #expect(rightWay * 10 >= paths.count * 8, "\(rightWay) of \(paths.count)")
    }

    /// Two ICDAR 2015 test photos turned half a turn: with the classifier the engine reads all but at most one of the
    /// published words it reads upright (at least 5; seen: 6 of 6), each word's frame centre on its published
    /// quadrilateral turned with the photo; without it, at most one of them (seen: none).
    @Test func upsideDownPhotosReadAsUpright() throws {
        let store = ModelStore.shared
        let detector = try TextLineDetector(url: Fixtures.model(TextLineDetector.defaultModelName), store: store)
        let recognizer = try TextLineRecognizer(url: Fixtures.model(TextLineRecognizer.defaultModelName), store: store)
        let direction = try TextDirectionClassifier(
            url: Fixtures.model(TextDirectionClassifier.defaultModelName), store: store)
        let withClassifier = try TextEngine(detector: detector, recognizer: recognizer, direction: direction)
        let without = try TextEngine(detector: detector, recognizer: recognizer)
        let truth = try JSONSerialization.jsonObject(
            with: Data(contentsOf: TextLineRecognizerTests.folder.appendingPathComponent("truth.json")))
        let all = try #require(truth as? [String: [[String: Any]]])
        var (upright, turned, turnedWithout) = (0, 0, 0)
        for name in ["img_47.jpg", "img_296.jpg"] {
            let photo = try Self.photo(name)
            let (right, bottom) = (Double(photo.buffer.width - 1), Double(photo.buffer.height - 1))
            // The published words, each with the bounding box of its quadrilateral turned with the photo.
            let published = try #require(all[name]).compactMap { word -> (String, CGRect)? in
                guard let text = word["text"] as? String, text != "###", let points = word["points"] as? [[Double]] else {
                    return nil
                }
                return (TextLineRecognizerTests.comparable(text), points.map { CGPoint(x: right - $0[0], y: bottom - $0[1]) }.boundingBox)
            }
            func found(_ text: RecognizedText) -> [TextElement] {
                text.blocks.flatMap(\.lines).flatMap(\.elements).filter { element in
                    published.contains { $0.0 == TextLineRecognizerTests.comparable(element.text) }
                }
            }
            let halfTurned = try VisionImage(buffer: Self.halfTurned(photo.buffer))
            let uprightWords = Set(try found(withClassifier.results(in: photo)).map(\.text))
            let turnedElements = try found(withClassifier.results(in: halfTurned))
            for element in turnedElements {
                let centre = CGPoint(x: element.frame.midX, y: element.frame.midY)
                let boxes = published.filter { $0.0 == TextLineRecognizerTests.comparable(element.text) }.map(\.1)
                #expect(boxes.contains { $0.insetBy(dx: -2, dy: -2).contains(centre) }, "\(name): \(element)")
            }
            upright += uprightWords.count
            turned += uprightWords.intersection(turnedElements.map(\.text)).count
            turnedWithout += uprightWords.intersection(try found(without.results(in: halfTurned)).map(\.text)).count
        }
        #expect(upright >= 5 && turned >= upright - 1, "\(turned) of \(upright)")
        #expect(turnedWithout <= 1, "\(turnedWithout) of \(upright) without the classifier")
    }
}
