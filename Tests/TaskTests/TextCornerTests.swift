import Foundation
import Testing

@testable import SwiftVisionCore
@testable import SwiftVisionTasks

/// Text lines and words carry corners beside their upright frames, as ML Kit's `cornerPoints` and Vision's text
/// observations do.
@Suite struct TextCornerTests {
    /// A line found in a turned rectangle keeps it as its corners, with its frame the rectangle's bounding box, and
    /// the JSON carries both through a round trip; a line without one has its frame's corners, and a word's corners
    /// follow a frame set on it.
    @Test func turnedCornersSurviveJSON() throws {
        let tilted = Quadrilateral(
            topLeft: CGPoint(x: 10, y: 20), topRight: CGPoint(x: 110, y: 40), bottomRight: CGPoint(x: 106, y: 60),
            bottomLeft: CGPoint(x: 6, y: 40))
        var word = TextElement(text: "tilted", corners: tilted, confidence: 0.9, recognizedLanguage: "eng")
        #expect(word.frame == CGRect(x: 6, y: 20, width: 104, height: 40))
        let line = TextLine(elements: [word], corners: tilted)
        #expect(line.corners == tilted && line.frame == CGRect(x: 6, y: 20, width: 104, height: 40))
        let decoded = try JSONDecoder().decode(TextLine.self, from: JSONEncoder().encode(line))
        #expect(decoded.corners == tilted && decoded.elements.first?.corners == tilted)

        word.frame = CGRect(x: 1, y: 2, width: 3, height: 4)
        #expect(word.corners == Quadrilateral(rect: CGRect(x: 1, y: 2, width: 3, height: 4)))
        let upright = TextLine(elements: [word])
        #expect(upright.corners == Quadrilateral(rect: upright.frame))
        let decodedUpright = try JSONDecoder().decode(TextLine.self, from: JSONEncoder().encode(upright))
        #expect(decodedUpright.corners == upright.corners && decodedUpright.frame == upright.frame)
    }

    /// Tilted words of ICDAR 2015 photos (eval/data/scenetext), read line by line from the text line detector, keep
    /// their turned corners: within a few pixels of ICDAR's published quadrilateral (mean corner distance: ROLEX
    /// 7.8 px where its upright frame's is 28.8; AMSTERDAM 5.8 against 23.8) and at its tilt (−27.5° against
    /// ICDAR's −29.4°; 25.5° against 24.6°), where the frame has none. Their line's corners are the detected turned
    /// rectangle.
    @Test(arguments: [("img_206.jpg", "ROLEX"), ("img_313.jpg", "AMSTERDAM")])
    func tiltedWordKeepsItsTurnedCorners(name: String, word: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../eval/data/scenetext").standardizedFileURL
        let truth = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("truth.json")))
        let published = try #require((truth as? [String: [[String: Any]]])?[name]?.first { $0["text"] as? String == word })
        let points = try #require(published["points"] as? [[Double]]).map { CGPoint(x: $0[0], y: $0[1]) }
        let engine = try TextEngine.shared(TextEngineOptions())
        let text = try engine.results(in: VisionImage(contentsOfFile: folder.appendingPathComponent(name).path))
        let line = try #require(text.blocks.flatMap(\.lines).first { $0.elements.contains { $0.text == word } }, "\(text.text)")
        let read = try #require(line.elements.first { $0.text == word })
        func meanDistance(_ corners: Quadrilateral) -> Double {
            zip(corners.corners, points).map { hypot($0.x - $1.x, $0.y - $1.y) }.reduce(0, +) / 4
        }
        func tilt(_ a: CGPoint, _ b: CGPoint) -> Double { atan2(b.y - a.y, b.x - a.x) * 180 / .pi }
        let distance = meanDistance(read.corners)
        #expect(distance <= 10, "\(word): \(read.corners) against \(points)")
        #expect(meanDistance(Quadrilateral(rect: read.frame)) > distance + 10)
        #expect(abs(tilt(read.corners.topLeft, read.corners.topRight) - tilt(points[0], points[1])) <= 4)
        #expect(abs(tilt(line.corners.topLeft, line.corners.topRight) - tilt(points[0], points[1])) <= 4)
        #expect(read.frame == read.corners.boundingBox && line.frame == line.corners.boundingBox)
    }
}
