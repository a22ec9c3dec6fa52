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
}
