import Foundation
import SwiftVisionCore
import SwiftVisionTasks

/// Speed against accuracy of text recognition, as Vision's `VNRequestTextRecognitionLevel`: `.accurate`
/// (the default) or `.fast`.
public typealias VNRequestTextRecognitionLevel = TextRecognitionLevel

/// Recognises text line by line, as Vision's `VNRecognizeTextRequest`, with the engine of
/// ``RecognizeTextRequest`` (Tesseract); its results are ``VNRecognizedTextObservation``s, in reading order.
public final class VNRecognizeTextRequest: VNImageBasedRequest {
    /// Vision's revisions 1 to 3, all served by the one engine.
    override public class var supportedRevisions: IndexSet { IndexSet(1...3) }

    /// How thoroughly text is recognised; `.accurate` by default, as in Vision.
    public var recognitionLevel: VNRequestTextRecognitionLevel = .accurate
    /// Languages as BCP 47 tags (`en-US`) or Tesseract names (`eng`), the main one first; `["en-US"]` by default.
    public var recognitionLanguages = ["en-US"]
    /// Whether Tesseract may use its word lists to choose between readings; on by default, as in Vision.
    public var usesLanguageCorrection = true
    /// Lines lower than this fraction of the image's height are left out; Vision's default 1/32.
    public var minimumTextHeight: Float = 1 / 32

    /// The languages with installed Tesseract data, as Vision's `supportedRecognitionLanguages()`.
    public func supportedRecognitionLanguages() throws -> [String] {
        RecognizeTextRequest.supportedRecognitionLanguages()
    }

    override func observations(in image: VisionImage, sequence: SequenceRequestHandler?) throws -> [VNObservation] {
        var request = RecognizeTextRequest()
        request.recognitionLevel = recognitionLevel
        request.recognitionLanguages = recognitionLanguages
        request.usesLanguageCorrection = usesLanguageCorrection
        request.minimumTextHeight = minimumTextHeight
        return try request.perform(on: imageInRegionOfInterest(image)).map(VNRecognizedTextObservation.init)
    }
}

/// A line of text, as Vision's `VNRecognizedTextObservation`: its box's corners (a
/// ``VNRectangleObservation``, in 0–1 of the image, origin at the lower left) and its readings.
public final class VNRecognizedTextObservation: VNRectangleObservation, @unchecked Sendable {
    /// The line's reading; Tesseract gives one.
    private let text: VNRecognizedText

    init(_ line: RecognizedTextObservation) {
        text = VNRecognizedText(line: line.line, imageSize: line.imageSize)
        super.init(uuid: line.uuid, confidence: line.confidence, corners: line.normalizedCorners)
    }

    /// Up to `maxCandidateCount` readings of the line, the likeliest first; Tesseract gives one.
    public func topCandidates(_ maxCandidateCount: Int) -> [VNRecognizedText] {
        maxCandidateCount > 0 ? [text] : []
    }
}

/// A reading of a line of text, as Vision's `VNRecognizedText`.
public final class VNRecognizedText: @unchecked Sendable {
    /// The text read: the line's words, separated by single spaces.
    public let string: String
    /// How sure the recogniser is of the reading, 0–1: the mean of its words'.
    public let confidence: VNConfidence
    /// The words, in upright pixels.
    private let line: TextLine
    /// The upright size of the image the line was read in, in pixels.
    private let imageSize: CGSize

    init(line: TextLine, imageSize: CGSize) {
        string = line.text
        confidence = line.confidence
        self.line = line
        self.imageSize = imageSize
    }

    /// The box around the words that `range` of ``string`` touches (in 0–1 of the image, origin at the
    /// lower left), as Vision's `boundingBox(for:)`: Tesseract places words, not single characters. Nil
    /// for a range that touches no word (only spaces); a range outside the string throws
    /// ``VNErrorCode/invalidArgument``.
    public func boundingBox(for range: Range<String.Index>) throws -> VNRectangleObservation? {
        guard range.lowerBound >= string.startIndex, range.upperBound <= string.endIndex else {
            throw NSError.vision(.invalidArgument, "the range lies outside the recognised string")
        }
        let lower = string.distance(from: string.startIndex, to: range.lowerBound)
        let upper = string.distance(from: string.startIndex, to: range.upperBound)
        var start = 0
        var box = CGRect.null
        for element in line.elements {
            let end = start + element.text.count
            if start < max(upper, lower + 1), lower < end { box = box.union(element.frame) }
            start = end + 1
        }
        guard !box.isNull else { return nil }
        let corners = Quadrilateral(rect: box).converted(from: .pixels, to: .normalizedLowerLeft, imageSize: imageSize)
        return VNRectangleObservation(uuid: UUID(), confidence: confidence, corners: corners)
    }
}
