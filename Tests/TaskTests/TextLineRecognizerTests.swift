import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// The scene-text line recogniser (PaddleOCR's PP-OCRv4 SVTR-LCNet with a CTC head) on words of ICDAR 2015 photos,
/// cut out along the quadrilaterals ICDAR publishes for them (eval/data/scenetext/truth.json).
@Suite struct TextLineRecognizerTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../eval/data/scenetext").standardizedFileURL

    /// The legible words ("###" marks the illegible) of two ICDAR 2015 test photos, each cut upright from its
    /// photo, with ICDAR's transcription.
    static func words() throws -> [(text: String, crop: PixelBuffer)] {
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("truth.json")))
        let all = try #require(truth as? [String: [[String: Any]]])
        return try ["img_47.jpg", "img_296.jpg"].flatMap { name in
            let photo = try VisionImage(contentsOfFile: folder.appendingPathComponent(name).path)
            return try #require(all[name]).compactMap { word -> (String, PixelBuffer)? in
                guard let text = word["text"] as? String, text != "###",
                    let points = word["points"] as? [[Double]], points.count == 4
                else { return nil }
                let corners = points.map { CGPoint(x: $0[0], y: $0[1]) }
                let quadrilateral = Quadrilateral(
                    topLeft: corners[0], topRight: corners[1], bottomRight: corners[2], bottomLeft: corners[3])
                return (text, try photo.perspectiveCorrected(quadrilateral).buffer)
            }
        }
    }

    /// Letters and digits, lower-cased, as eval/sections/scenetext.py compares words.
    static func comparable(_ text: String) -> String { text.lowercased().filter { $0.isLetter || $0.isNumber } }

    /// It reads the words as ICDAR transcribes them (letters and digits, case aside): 10 of the 14 legible words of
    /// the two photos, among them every one of the 9 that rapidocr 1.4.4's own recogniser (ONNX Runtime) reads on its
    /// crops of the same quadrilaterals, the partly hidden KECHERS (wider than 320 at height 48) too; neither reads
    /// "just", "run." and "Cafe" (27 × 19 pixels) or the "adidas" 9 pixels high. Each word's extent lies in its crop.
    @Test func readsICDARWords() throws {
        let recognizer = try TextLineRecognizer(url: Fixtures.model(TextLineRecognizer.defaultModelName), store: .shared)
        var read: [String] = []
        for (text, crop) in try Self.words() {
            let reading = try recognizer.read(crop)
            if Self.comparable(reading.text) == Self.comparable(text) { read.append(text) }
            #expect((0...1).contains(reading.confidence))
            for word in reading.words {
                #expect(word.minX >= 0 && word.minX < word.maxX && word.maxX <= Double(crop.width), "\(word)")
            }
        }
        #expect(read.count >= 10, "read \(read)")
        let rapidOCRReads = ["sale", "adidas", "KECHERS", "crocs", "SALE", "STARBUCKS", "COFFEE", "PARIS", "BAGUETTE"]
        #expect(rapidOCRReads.allSatisfy(read.contains), "read \(read)")
    }

    /// Its strings and confidences are those of rapidocr's preprocessing and CTC decoding run in Python on the same
    /// model and crops (Tests/Python/Reference/text_recognition_reference.py): the same text for every crop, the
    /// confidence within 0.02 (the one difference: the crop is shrunk by area averaging here, bilinearly there).
    @Test func matchesRapidOCRsDecoding() throws {
        let model = try Fixtures.model(TextLineRecognizer.defaultModelName)
        let recognizer = try TextLineRecognizer(url: model, store: .shared)
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let words = try Self.words()
        let paths = try words.enumerated().map { index, word in
            let url = folder.appendingPathComponent("word\(index).png")
            try VisionImage(buffer: word.crop).write(to: url)
            return url.path
        }
        let reference = try #require(
            try JSONSerialization.jsonObject(with: Fixtures.referenceOutput("text_recognition_reference.py", [model.path] + paths))
                as? [[String: Any]])
        #expect(reference.count == words.count)
        for (path, expected) in zip(paths, reference) {
            let reading = try recognizer.read(VisionImage(contentsOfFile: path).buffer)
            #expect(reading.text == expected["text"] as? String, "\(path): \(reading.text) against \(expected)")
            let confidence = try #require(expected["confidence"] as? Double)
            #expect(abs(Double(reading.confidence) - confidence) <= 0.02, "\(path): \(reading.confidence) against \(confidence)")
        }
    }

    /// A detected line of several words (ICDAR 2015 test photo img_182) is split at its spaces into words in
    /// order along the line, each inside the crop.
    @Test func wordsFollowEachOtherInsideTheLine() throws {
        let recognizer = try TextLineRecognizer(url: Fixtures.model(TextLineRecognizer.defaultModelName), store: .shared)
        let detector = try TextLineDetector(url: Fixtures.model(TextLineDetector.defaultModelName), store: .shared)
        let photo = try VisionImage(contentsOfFile: Self.folder.appendingPathComponent("img_182.jpg").path)
        var split = 0
        for line in try detector.lines(in: photo) where line.isConvex && line.area >= 1 {
            let crop = try photo.perspectiveCorrected(line).buffer
            let reading = try recognizer.read(crop)
            #expect(reading.words.map(\.text) == reading.text.split(separator: " ").map(String.init))
            for (word, next) in zip(reading.words, reading.words.dropFirst()) {
                #expect(word.maxX <= next.minX + 1, "\(reading.words)")
            }
            #expect(reading.words.allSatisfy { $0.minX >= 0 && $0.minX < $0.maxX && $0.maxX <= Double(crop.width) })
            if reading.words.count > 1 { split += 1 }
        }
        #expect(split > 0)
    }

    /// Through the text engine (accurate level, detector and recogniser installed) the words of two ICDAR 2015 test
    /// photos that match a published transcription lie where ICDAR marks them: each one's frame centre inside the
    /// bounding box of the word's published quadrilateral (at least 5 such words), so the word extents come back
    /// through the line's inverse warp to the right place.
    @Test func engineWordsLieOnTheirICDARBoxes() throws {
        _ = try Fixtures.model(TextLineDetector.defaultModelName)
        _ = try Fixtures.model(TextLineRecognizer.defaultModelName)
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.folder.appendingPathComponent("truth.json")))
        let all = try #require(truth as? [String: [[String: Any]]])
        let engine = try TextEngine.shared(TextEngineOptions())
        var placed = 0
        for name in ["img_47.jpg", "img_296.jpg"] {
            let boxes = try #require(all[name]).compactMap { word -> (String, CGRect)? in
                guard let text = word["text"] as? String, text != "###", let points = word["points"] as? [[Double]] else {
                    return nil
                }
                return (Self.comparable(text), points.map { CGPoint(x: $0[0], y: $0[1]) }.boundingBox)
            }
            let text = try engine.results(in: VisionImage(contentsOfFile: Self.folder.appendingPathComponent(name).path))
            for element in text.blocks.flatMap(\.lines).flatMap(\.elements) {
                let candidates = boxes.filter { $0.0 == Self.comparable(element.text) }
                guard !candidates.isEmpty else { continue }
                let centre = CGPoint(x: element.frame.midX, y: element.frame.midY)
                #expect(candidates.contains { $0.1.insetBy(dx: -2, dy: -2).contains(centre) }, "\(name): \(element)")
                placed += 1
            }
        }
        #expect(placed >= 5)
    }

    /// Four readings at once through the one pooled interpreter (each instance resized to its line) give what one
    /// at a time gives.
    @Test func concurrentReadingsGiveTheSameText() async throws {
        let recognizer = try TextLineRecognizer(url: Fixtures.model(TextLineRecognizer.defaultModelName), store: .shared)
        let crops = try Self.words().map(\.crop).prefix(4)
        let alone = try crops.map { try recognizer.read($0).text }
        let together = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, crop) in crops.enumerated() { group.addTask { (index, try recognizer.read(crop).text) } }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        #expect(crops.indices.allSatisfy { together[$0] == alone[$0] }, "\(together) against \(alone)")
    }

    /// Tiny, huge and thin crops are read within bounded inputs: at least 320 wide, at most 1920, a multiple of 8.
    @Test func inputsStayBounded() throws {
        let recognizer = try TextLineRecognizer(url: Fixtures.model(TextLineRecognizer.defaultModelName), store: .shared)
        for (width, height) in [(1, 1), (3, 400), (20_000, 30), (5_000, 1), (2, 2_000)] {
            let (scaled, input) = TextLineRecognizer.inputWidths(width: width, height: height)
            #expect(scaled >= 1 && scaled <= input && input >= 320 && input <= 1920 && input % 8 == 0)
            let crop = try PixelBuffer(
                format: .gray, width: width, height: height, bytes: [UInt8](repeating: 200, count: width * height))
            let reading = try recognizer.read(crop)
            #expect(reading.words.allSatisfy { $0.maxX <= Double(width) })
        }
        #expect(TextLineRecognizer.inputWidths(width: 100, height: 48) == (100, 320))
        #expect(TextLineRecognizer.inputWidths(width: 401, height: 48) == (401, 408))
    }
}
