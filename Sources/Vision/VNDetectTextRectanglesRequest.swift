import Foundation
import SwiftVisionCore
import SwiftVisionTasks

/// Finds the lines of text in an image, as Vision's `VNDetectTextRectanglesRequest`; its results are
/// ``VNTextObservation``s, one per line, in reading order.
///
/// The lines are those the text engine of ``RecognizeTextRequest`` finds (Tesseract's layout, and the text
/// line detector in photos); what it reads in them is not reported.
public final class VNDetectTextRectanglesRequest: VNImageBasedRequest {
    /// Whether each observation carries the boxes inside its line (``VNTextObservation/characterBoxes``); off by
    /// default, as in Vision.
    public var reportCharacterBoxes = false

    override func observations(in image: VisionImage, sequence: SequenceRequestHandler?) throws -> [VNObservation] {
        let lines = try RecognizeTextRequest().perform(on: imageInRegionOfInterest(image))
        return lines.map { VNTextObservation($0, characterBoxes: reportCharacterBoxes) }
    }
}

/// A line of text, as Vision's `VNTextObservation`: its corners (a ``VNRectangleObservation``, in 0–1 of the
/// image, origin at the lower left) and, when asked for, the boxes inside it.
public final class VNTextObservation: VNRectangleObservation, @unchecked Sendable {
    /// With ``VNDetectTextRectanglesRequest/reportCharacterBoxes``, the boxes inside the line, left to right, in
    /// 0–1 of the image, origin at the lower left; nil otherwise. Tesseract places words, not single characters,
    /// so each box holds one word.
    public let characterBoxes: [VNRectangleObservation]?

    init(_ line: RecognizedTextObservation, characterBoxes: Bool) {
        self.characterBoxes = characterBoxes ? line.line.elements.map { word in
            let corners = word.corners.converted(from: .pixels, to: .normalizedLowerLeft, imageSize: line.imageSize)
            return VNRectangleObservation(uuid: UUID(), confidence: word.confidence, corners: corners)
        } : nil
        super.init(uuid: line.uuid, confidence: line.confidence, corners: line.normalizedCorners)
    }
}
