import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// The scene-text line detector (PaddleOCR's PP-OCRv4 DB detector) in front of Tesseract, on ICDAR 2015 photos.
@Suite struct TextLineDetectorTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../eval/data/scenetext").standardizedFileURL

    /// Two ICDAR 2015 test photos with 8 lines between them, for the comparison of boxes.
    static let photos = ["img_182.jpg", "img_18.jpg"]

    /// The detector's boxes are those of rapidocr's post-processing run in Python on the same model
    /// (Tests/Python/Reference/text_lines_reference.py; on these photos it is within a pixel of rapidocr 1.4.4 on
    /// the original ONNX model): as many boxes, each overlapping its counterpart at IoU 0.9 or more (8 boxes).
    @Test func findsTheLinesThatRapidOCRFinds() throws {
        let model = try Fixtures.model(TextLineDetector.defaultModelName)
        let paths = Self.photos.map { Self.folder.appendingPathComponent($0).path }
        let reference = try JSONSerialization.jsonObject(
            with: Fixtures.referenceOutput("text_lines_reference.py", [model.path] + paths)) as? [[String: Any]]
        let detector = try TextLineDetector(url: model, store: .shared)
        var compared = 0
        for (path, expected) in zip(paths, try #require(reference)) {
            let boxes = try #require(expected["boxes"] as? [[[Double]]]).map { $0.map { CGPoint(x: $0[0], y: $0[1]) } }
            let found = try detector.lines(in: VisionImage(contentsOfFile: path)).map(\.corners)
            #expect(found.count == boxes.count, "\(path): \(found.count) boxes, the reference \(boxes.count)")
            for box in boxes {
                let best = found.map { Self.intersectionOverUnion(box, $0) }.max() ?? 0
                #expect(best >= 0.9, "\(path): the reference's box \(box) is matched at IoU \(best)")
                compared += 1
            }
        }
        #expect(compared == 8)
    }

    /// With the detector, the accurate level reads words of these ICDAR 2015 test photos as ICDAR publishes them,
    /// where before it read nothing in either.
    @Test(arguments: ["img_182.jpg", "img_206.jpg"])
    func readsWordsTheReadingWithoutItMissed(name: String) throws {
        _ = try Fixtures.model(TextLineDetector.defaultModelName)
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.folder.appendingPathComponent("truth.json")))
        let words = try #require((truth as? [String: [[String: Any]]])?[name]).compactMap { $0["text"] as? String }
            .filter { $0 != "###" }.map { $0.lowercased() }
        let text = try TextEngine.shared(TextEngineOptions())
            .results(in: VisionImage(contentsOfFile: Self.folder.appendingPathComponent(name).path))
        let read = text.blocks.flatMap(\.lines).flatMap(\.elements).map {
            $0.text.lowercased().filter { $0.isLetter || $0.isNumber }
        }
        #expect(words.contains { read.contains($0) }, "\(name): ICDAR \(words), read \(read)")
        // Each detected line is a block of one line whose words lie inside the photo.
        #expect(text.blocks.allSatisfy { $0.lines.count == 1 })
        #expect(text.blocks.allSatisfy { $0.frame.minX >= -1 && $0.frame.maxX <= 1281 && $0.frame.minY >= -1 && $0.frame.maxY <= 721 })
    }

    /// Concurrent readings share the detector's interpreter (each instance resized to its image) and give the text of
    /// one reading at a time, on two photos of different sizes.
    @Test func concurrentReadingsGiveTheSameText() async throws {
        _ = try Fixtures.model(TextLineDetector.defaultModelName)
        let engine = try TextEngine.shared(TextEngineOptions())
        let photo = try VisionImage(contentsOfFile: Self.folder.appendingPathComponent("img_182.jpg").path)
        let smaller = try photo.resized(width: 960, height: 540)
        let alone = try [photo, smaller].map { try engine.results(in: $0).text }
        #expect(!alone[0].isEmpty)
        let texts = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for index in 0..<4 { group.addTask { (index % 2, try engine.results(in: [photo, smaller][index % 2]).text) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(texts.allSatisfy { alone[$0.0] == $0.1 }, "\(texts) against \(alone)")
    }

    /// The input size follows rapidocr for photos (shorter side up to 736, multiples of 32) and stays bounded for
    /// any image, however large or thin.
    @Test func inputSizeIsBounded() {
        #expect(TextLineDetector.inputSize(width: 1280, height: 720) == (1312, 736))
        #expect(TextLineDetector.inputSize(width: 1, height: 1) == (736, 736))
        let huge = TextLineDetector.inputSize(width: 40_000, height: 30_000)
        #expect(huge.width <= 1920 && huge.height <= 1920)
        let thin = TextLineDetector.inputSize(width: 100_000, height: 1)
        #expect(thin.width <= 1920 && thin.height == 32)
    }

    /// The intersection over union of two convex quadrilaterals (Sutherland–Hodgman clipping, shoelace areas).
    static func intersectionOverUnion(_ a: [CGPoint], _ b: [CGPoint]) -> Double {
        func signedArea(_ polygon: [CGPoint]) -> Double {
            polygon.indices.reduce(0.0) { sum, i in
                let (p, q) = (polygon[i], polygon[(i + 1) % polygon.count])
                return sum + p.x * q.y - q.x * p.y
            } / 2
        }
        func area(_ polygon: [CGPoint]) -> Double { abs(signedArea(polygon)) }
        let orientation = signedArea(b) >= 0 ? 1.0 : -1.0
        var clipped = a
        for i in b.indices where !clipped.isEmpty {
            let (p, q) = (b[i], b[(i + 1) % b.count])
            func inside(_ r: CGPoint) -> Bool { orientation * ((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)) >= 0 }
            func crossing(_ r: CGPoint, _ s: CGPoint) -> CGPoint {
                let (d1, d2) = ((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x), (q.x - p.x) * (s.y - p.y) - (q.y - p.y) * (s.x - p.x))
                let t = d1 / (d1 - d2)
                return CGPoint(x: r.x + t * (s.x - r.x), y: r.y + t * (s.y - r.y))
            }
            let input = clipped
            clipped = []
            for j in input.indices {
                let (r, s) = (input[j], input[(j + 1) % input.count])
                if inside(s) {
                    if !inside(r) { clipped.append(crossing(r, s)) }
                    clipped.append(s)
                } else if inside(r) {
                    clipped.append(crossing(r, s))
                }
            }
        }
        let shared = clipped.count >= 3 ? area(clipped) : 0
        return shared / (area(a) + area(b) - shared)
    }
}
