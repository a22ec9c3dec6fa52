import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// A candidate reading of a line of text (Vision's `VNRecognizedText`).
public struct RecognizedText: Sendable, Equatable {
    /// The text read.
    public var string: String
    /// How sure the recogniser is of the reading, 0–1.
    public var confidence: Float
}

/// A line of text read by ``RecognizeTextRequest`` (Vision's `VNRecognizedTextObservation`).
public struct RecognizedTextObservation: QuadrilateralObservation, Equatable {
    /// Identifies the observation (Vision's `uuid`): new for each observation made, kept by its copies.
    public let uuid: UUID
    /// The line's corners in upright pixels, origin at the top left: turned with the text where it was found
    /// turned, else those of its box.
    public var imageCorners: Quadrilateral
    /// The upright size of the image the line was read in, in pixels.
    public var imageSize: CGSize
    /// The line's confidence: the mean of its words', 0–1.
    public var confidence: Float { line.confidence }
    /// The line with its words, in upright pixels.
    public var line: TextLine

    /// An observation of `line`, read in an image of `imageSize` upright pixels.
    public init(line: TextLine, imageSize: CGSize) {
        uuid = UUID()
        imageCorners = line.corners
        self.imageSize = imageSize
        self.line = line
    }

    /// Up to `maximumCandidateCount` readings, the likeliest first; Tesseract gives one.
    public func topCandidates(_ maximumCandidateCount: Int) -> [RecognizedText] {
        maximumCandidateCount > 0 ? [RecognizedText(string: line.text, confidence: line.confidence)] : []
    }
}
