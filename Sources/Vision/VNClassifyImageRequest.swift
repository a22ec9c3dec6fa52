import Foundation
import SwiftVisionCore
import SwiftVisionTasks

/// Classifies an image, as Vision's `VNClassifyImageRequest`, with the engine of ``ClassifyImageRequest``
/// (the model zoo's ImageNet classifier); its results are ``VNClassificationObservation``s, every class
/// with its confidence, most confident first.
public final class VNClassifyImageRequest: VNImageBasedRequest {
    /// Vision's revisions 1 to 2, all served by the one engine.
    override public class var supportedRevisions: IndexSet { IndexSet(1...2) }

    /// The classes the classifier tells apart (ImageNet's 1000), as Vision's `supportedIdentifiers()`; a
    /// classifier that cannot be loaded throws, as an `NSError` in ``VNErrorDomain``.
    public func supportedIdentifiers() throws -> [String] {
        do {
            return try LabelsTask(options: LabelsTask.Options()).classNames ?? []
        } catch {
            throw NSError.vision(error)
        }
    }

    override func observations(in image: VisionImage, sequence: SequenceRequestHandler?) throws -> [VNObservation] {
        try ClassifyImageRequest().perform(on: imageInRegionOfInterest(image)).map(VNClassificationObservation.init)
    }
}

/// One class of an image with its confidence, as Vision's `VNClassificationObservation`.
public final class VNClassificationObservation: VNObservation, @unchecked Sendable {
    /// The class's name, such as `espresso`.
    public let identifier: String

    init(_ classification: ClassificationObservation) {
        identifier = classification.identifier
        super.init(uuid: classification.uuid, confidence: classification.confidence)
    }

    /// False: the classifier has no precision-recall curve.
    public var hasPrecisionRecallCurve: Bool { false }

    /// Whether the class reaches `minimumPrecision` at `recall` on the classifier's precision-recall curve:
    /// false, as the classifier has none (``hasPrecisionRecallCurve``).
    public func hasMinimumPrecision(_ minimumPrecision: Float, forRecall recall: Float) -> Bool {
        false
    }

    /// Whether the class reaches `minimumRecall` at `precision` on the classifier's precision-recall curve:
    /// false, as the classifier has none (``hasPrecisionRecallCurve``).
    public func hasMinimumRecall(_ minimumRecall: Float, forPrecision precision: Float) -> Bool {
        false
    }
}
