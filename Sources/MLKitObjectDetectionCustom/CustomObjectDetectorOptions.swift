@_exported import MLKitObjectDetectionCommon
import Foundation
import SwiftVisionRuntime

/// Options of an object detector whose objects a custom `.tflite` classifier labels, as ML Kit's
/// `CustomObjectDetectorOptions`. As in ML Kit, labels come only with ``shouldEnableClassification``.
public final class CustomObjectDetectorOptions: CommonObjectDetectorOptions {
    /// Lowest label confidence, 0–1; nil takes the model metadata's score threshold, else 0.
    public var classificationConfidenceThreshold: NSNumber? {
        get { classifierThreshold.map { NSNumber(value: $0) } }
        set { classifierThreshold = newValue?.floatValue }
    }
    /// Most labels per object, the most confident first; ML Kit's default 10.
    public var maxPerObjectLabelCount: Int {
        get { classifierLabelLimit }
        set { classifierLabelLimit = newValue }
    }

    /// Objects labelled by the classifier in the file `localModel` names.
    public init(localModel: LocalModel) {
        super.init(classifier: .local(localModel))
    }

    /// Objects labelled by a downloaded remote classifier; the detector reports an error if it is not downloaded.
    public init(remoteModel: RemoteModel, modelManager: ModelManager = .modelManager()) {
        super.init(classifier: .remote(remoteModel, modelManager))
    }
}
