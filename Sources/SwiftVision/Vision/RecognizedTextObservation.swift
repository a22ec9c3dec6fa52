import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// A candidate reading of a line of text (Vision's `VNRecognizedText`).
public struct RecognizedText: Sendable, Equatable {
    public var string: String
    public var confidence: Float
}

/// A line of text read by ``RecognizeTextRequest`` (Vision's `VNRecognizedTextObservation`).
public struct RecognizedTextObservation: QuadrilateralObservation, Equatable {
    public var imageCorners: Quadrilateral
    public var imageSize: CGSize
    public var confidence: Float { line.confidence }
    /// The line with its words, in upright pixels.
    public var line: TextLine

    public init(line: TextLine, imageSize: CGSize) {
        imageCorners = Quadrilateral(rect: line.frame)
        self.imageSize = imageSize
        self.line = line
    }

    /// Up to `maximumCandidateCount` readings, the likeliest first; Tesseract gives one.
    public func topCandidates(_ maximumCandidateCount: Int) -> [RecognizedText] {
        maximumCandidateCount > 0 ? [RecognizedText(string: line.text, confidence: line.confidence)] : []
    }
}
