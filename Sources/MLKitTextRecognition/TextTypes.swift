@_exported import MLKitVision
import Foundation
import SwiftVisionCore
import SwiftVisionTasks

/// The text recognised in an image, as ML Kit's `Text`: blocks of lines of elements (words).
public final class Text: Sendable {
    /// The whole text in reading order: lines separated by line breaks, blocks by blank lines.
    public let text: String
    /// The blocks in reading order.
    public let blocks: [TextBlock]

    /// The text recognised as `text`.
    init(_ text: RecognizedText) {
        self.text = text.text
        blocks = text.blocks.map(TextBlock.init)
    }
}

/// A paragraph or column of text, as ML Kit's `TextBlock`.
public final class TextBlock: @unchecked Sendable {
    /// The lines, separated by line breaks.
    public let text: String
    /// The lines in reading order.
    public let lines: [TextLine]
    /// The smallest upright rectangle around the lines, in pixels of the upright image.
    public let frame: CGRect
    /// The languages of the block's words, each once.
    public let recognizedLanguages: [TextRecognizedLanguage]
    /// The corners of the text, clockwise from its top left (turned with the text where it was found turned), as
    /// `CGPoint`s in `NSValue`s (as on iOS).
    public let cornerPoints: [NSValue]

    init(_ block: SwiftVisionTasks.TextBlock) {
        text = block.text
        lines = block.lines.map(TextLine.init)
        frame = block.frame
        recognizedLanguages = TextRecognizedLanguage.distinct(lines.flatMap(\.recognizedLanguages))
        cornerPoints = block.corners.cornerPoints
    }
}

/// A line of a block, as ML Kit's `TextLine`.
public final class TextLine: @unchecked Sendable {
    /// The elements, separated by spaces.
    public let text: String
    /// The elements (words) from left to right.
    public let elements: [TextElement]
    /// The smallest upright rectangle around the elements, in pixels of the upright image.
    public let frame: CGRect
    /// The languages of the line's words, each once.
    public let recognizedLanguages: [TextRecognizedLanguage]
    /// The corners of the text, clockwise from its top left (turned with the text where it was found turned), as
    /// `CGPoint`s in `NSValue`s (as on iOS).
    public let cornerPoints: [NSValue]

    init(_ line: SwiftVisionTasks.TextLine) {
        text = line.text
        elements = line.elements.map(TextElement.init)
        frame = line.frame
        recognizedLanguages = TextRecognizedLanguage.distinct(elements.flatMap(\.recognizedLanguages))
        cornerPoints = line.corners.cornerPoints
    }
}

/// A word, as ML Kit's `TextElement`.
public final class TextElement: @unchecked Sendable {
    /// The word as read.
    public let text: String
    /// The word's box, in pixels of the upright image.
    public let frame: CGRect
    /// The language of the data the word was read with; empty when not known.
    public let recognizedLanguages: [TextRecognizedLanguage]
    /// The corners of the text, clockwise from its top left (turned with the text where it was found turned), as
    /// `CGPoint`s in `NSValue`s (as on iOS).
    public let cornerPoints: [NSValue]

    init(_ element: SwiftVisionTasks.TextElement) {
        text = element.text
        frame = element.frame
        recognizedLanguages = element.recognizedLanguage.isEmpty ? [] : [TextRecognizedLanguage(tesseractName: element.recognizedLanguage)]
        cornerPoints = element.corners.cornerPoints
    }
}

/// A language text was read in, as ML Kit's `TextRecognizedLanguage`.
public final class TextRecognizedLanguage: Sendable {
    /// The BCP 47 tag, such as `en`; the Tesseract data's name for a language without one.
    public let languageCode: String?

    /// The language of Tesseract's data `name` (`eng` is `en`, `chi_sim` is `zh`).
    init(tesseractName name: String) {
        let tags = TesseractLanguage.bcp47.filter { $0.value == name }.keys
        languageCode = tags.min { ($0.count, $0) < ($1.count, $1) } ?? name
    }

    /// `languages` with each code once, in order.
    static func distinct(_ languages: [TextRecognizedLanguage]) -> [TextRecognizedLanguage] {
        var seen = Set<String?>()
        return languages.filter { seen.insert($0.languageCode).inserted }
    }
}

extension Quadrilateral {
    /// The corners, clockwise from the top left (y grows downwards), as ML Kit's `cornerPoints`.
    fileprivate var cornerPoints: [NSValue] { corners.map { NSValue(cgPoint: $0) } }
}
