import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Recognised text, as ML Kit's `Text`: blocks of lines of words, in reading order.
public struct RecognizedText: Sendable, Equatable, Codable {
    /// The whole text in reading order: lines separated by newlines, blocks by blank lines.
    public var text: String { blocks.map(\.text).joined(separator: "\n\n") }
    /// The blocks in reading order.
    public var blocks: [TextBlock]

    /// Text made of `blocks`.
    public init(blocks: [TextBlock]) {
        self.blocks = blocks
    }
}

/// A paragraph or column of text (ML Kit's `TextBlock`).
public struct TextBlock: Sendable, Equatable, Codable {
    /// The lines, separated by newlines.
    public var text: String { lines.map(\.text).joined(separator: "\n") }
    /// The smallest upright rectangle around the lines, in upright pixels.
    public var frame: CGRect { lines.map(\.frame).reduce(CGRect.null) { $0.union($1) } }
    /// The block's corners in upright pixels: those of its line when it has one, else of ``frame``.
    public var corners: Quadrilateral { lines.count == 1 ? lines[0].corners : Quadrilateral(rect: frame) }
    /// The languages of the data the words were read with, such as `eng`.
    public var recognizedLanguages: [String] {
        lines.flatMap(\.elements).map(\.recognizedLanguage).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }
    /// The lines in reading order.
    public var lines: [TextLine]

    /// A block of `lines`.
    public init(lines: [TextLine]) {
        self.lines = lines
    }
}

/// A line of words (ML Kit's `TextLine`).
public struct TextLine: Sendable, Equatable, Codable {
    /// The words, separated by spaces.
    public var text: String { elements.map(\.text).joined(separator: " ") }
    /// The smallest upright rectangle around the line: around ``corners`` when it was found turned, else around
    /// the words; in upright pixels.
    public var frame: CGRect { turnedCorners?.boundingBox ?? wordsFrame }
    /// The smallest upright rectangle around the words, in upright pixels.
    var wordsFrame: CGRect { elements.map(\.frame).reduce(CGRect.null) { $0.union($1) } }
    /// The line's corners in upright pixels, top left first in the text's own direction: the turned rectangle
    /// the line was found in, else the corners of ``frame``.
    public var corners: Quadrilateral { turnedCorners ?? Quadrilateral(rect: frame) }
    /// The turned rectangle the line was found in, if it was found as one.
    private var turnedCorners: Quadrilateral?
    /// The line's confidence: the mean of its words', 0–1.
    public var confidence: Float { elements.isEmpty ? 0 : elements.map(\.confidence).reduce(0, +) / Float(elements.count) }
    /// The words (ML Kit's `elements`).
    public var elements: [TextElement]

    /// A line of the words `elements`.
    public init(elements: [TextElement]) {
        self.elements = elements
        turnedCorners = nil
    }

    /// A line of the words `elements`, found in the turned rectangle `corners` (upright pixels).
    public init(elements: [TextElement], corners: Quadrilateral) {
        self.elements = elements
        turnedCorners = corners
    }
}

/// A word (ML Kit's `TextElement`).
public struct TextElement: Sendable, Equatable, Codable {
    /// The word as read.
    public var text: String
    /// The word's box in upright pixels: the smallest upright rectangle around ``corners``. Setting it makes the
    /// corners its own.
    public var frame: CGRect {
        get { corners.boundingBox }
        set { corners = Quadrilateral(rect: newValue) }
    }
    /// The word's corners in upright pixels, top left first in the text's own direction (turned with the text).
    public var corners: Quadrilateral
    /// How sure the recogniser is of the word, 0–1.
    public var confidence: Float
    /// The language of the data the word was read with, such as `eng`.
    public var recognizedLanguage: String

    /// A word with its box in upright pixels, its 0–1 confidence and the language data it was read with.
    public init(text: String, frame: CGRect, confidence: Float, recognizedLanguage: String) {
        self.init(text: text, corners: Quadrilateral(rect: frame), confidence: confidence, recognizedLanguage: recognizedLanguage)
    }

    /// A word with its corners in upright pixels, its 0–1 confidence and the language data it was read with.
    public init(text: String, corners: Quadrilateral, confidence: Float, recognizedLanguage: String) {
        self.text = text
        self.corners = corners
        self.confidence = confidence
        self.recognizedLanguage = recognizedLanguage
    }
}

extension RecognizedText {
    enum CodingKeys: String, CodingKey { case text, blocks }

    /// Decodes `{"text","blocks"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(blocks: try container.decode([TextBlock].self, forKey: .blocks))
    }

    /// Encodes the whole text and its blocks.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(blocks, forKey: .blocks)
    }
}

extension TextBlock {
    enum CodingKeys: String, CodingKey { case text, frame, lines }

    /// Decodes `{"text","frame","lines"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(lines: try container.decode([TextLine].self, forKey: .lines))
    }

    /// Encodes the block's text, frame and lines.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(PixelRect(frame), forKey: .frame)
        try container.encode(lines, forKey: .lines)
    }
}

extension TextLine {
    enum CodingKeys: String, CodingKey { case text, frame, corners, confidence, words }

    /// Decodes `{"text","frame","corners","confidence","words"}`; corners other than the frame's are kept as
    /// the line's turned rectangle.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(elements: try container.decode([TextElement].self, forKey: .words))
        if let corners = try container.decodeIfPresent(PixelCorners.self, forKey: .corners)?.quadrilateral,
            corners != Quadrilateral(rect: frame)
        {
            turnedCorners = corners
        }
    }

    /// Encodes the line's text, frame, corners, confidence and words.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(PixelRect(frame), forKey: .frame)
        try container.encode(PixelCorners(corners), forKey: .corners)
        try container.encode(confidence, forKey: .confidence)
        try container.encode(elements, forKey: .words)
    }
}

extension TextElement {
    enum CodingKeys: String, CodingKey { case text, frame, corners, confidence, language }

    /// Decodes `{"text","frame","corners","confidence"}`; without corners they are the frame's.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let frame = try container.decode(PixelRect.self, forKey: .frame).rect
        self.init(
            text: try container.decode(String.self, forKey: .text),
            corners: try container.decodeIfPresent(PixelCorners.self, forKey: .corners)?.quadrilateral
                ?? Quadrilateral(rect: frame),
            confidence: try container.decode(Float.self, forKey: .confidence),
            recognizedLanguage: try container.decodeIfPresent(String.self, forKey: .language) ?? "")
    }

    /// Encodes the word's text, frame, corners and confidence.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(PixelRect(frame), forKey: .frame)
        try container.encode(PixelCorners(corners), forKey: .corners)
        try container.encode(confidence, forKey: .confidence)
    }
}

/// A quadrilateral's corners as points in pixels: `{"topLeft","topRight","bottomRight","bottomLeft"}`, each
/// `{"x","y"}`.
struct PixelCorners: Codable {
    var topLeft, topRight, bottomRight, bottomLeft: PixelPoint

    /// The corners of `quadrilateral`.
    init(_ quadrilateral: Quadrilateral) {
        topLeft = PixelPoint(quadrilateral.topLeft)
        topRight = PixelPoint(quadrilateral.topRight)
        bottomRight = PixelPoint(quadrilateral.bottomRight)
        bottomLeft = PixelPoint(quadrilateral.bottomLeft)
    }

    /// The corners as a quadrilateral.
    var quadrilateral: Quadrilateral {
        Quadrilateral(topLeft: topLeft.point, topRight: topRight.point, bottomRight: bottomRight.point, bottomLeft: bottomLeft.point)
    }
}
