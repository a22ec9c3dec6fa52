import Dispatch
import Foundation
import SwiftVisionRuntime
import SwiftVisionTasks

/// Whether an object detector's images are independent photos or a stream, as ML Kit's `ObjectDetectorMode`.
public enum ObjectDetectorMode: Sendable, Equatable {
    /// Each image on its own; no tracking IDs.
    case singleImage
    /// Successive frames of a video or camera: objects carry tracking IDs that persist across frames.
    case stream
}

/// What base and custom object detectors share, as ML Kit's `CommonObjectDetectorOptions`: make an
/// `ObjectDetectorOptions` (the detector's own classes) or a `CustomObjectDetectorOptions` (a `.tflite`
/// classifier labels each object).
open class CommonObjectDetectorOptions: @unchecked Sendable {
    /// Single images or a stream; a stream by default, as in ML Kit.
    public var detectorMode: ObjectDetectorMode = .stream
    /// Report up to ``maximumObjectCount`` objects; otherwise only the most prominent one.
    public var shouldEnableMultipleObjects = false
    /// Label each object: the detector's COCO class and ML Kit's coarse category, or the custom classifier's labels.
    public var shouldEnableClassification = false
    /// Objects reported with ``shouldEnableMultipleObjects`` (ML Kit: 5).
    public var maximumObjectCount = 5
    /// Lowest detection score to report, 0–1 (default: the model's recommended 0.25).
    public var detectionConfidenceThreshold: Float?
    /// In stream mode, a frame that arrives while another is processed fails at once instead of
    /// waiting, as `AVCaptureVideoDataOutput.alwaysDiscardsLateVideoFrames`.
    public var alwaysDiscardsLateVideoFrames = false
    /// Threads for inference.
    public var threadCount = LiteRT.CompilationOptions.default.threadCount
    /// The detector model; the model zoo's YOLOv4-tiny by default.
    public var modelURL: URL = SwiftVisionCache.current.model(named: ObjectDetectionModel.defaultModelName)
    /// Where ``ObjectDetector/process(_:completion:)`` calls its completion: the main queue, as on iOS,
    /// which a program must serve (`dispatchMain()`, `RunLoop.main.run()`); set another queue in a
    /// program without a main loop.
    public var callbackQueue: DispatchQueue = .main

    /// The custom classifier that labels each object's crop instead of the detector's classes; nil for none.
    let classifier: ModelSource?
    /// Lowest label confidence of the custom classifier; nil takes the model metadata's score threshold, else 0.
    package var classifierThreshold: Float?
    /// Most labels per object from the custom classifier.
    package var classifierLabelLimit = 10

    /// Options with ML Kit's defaults whose objects `classifier` labels (nil: the detector's classes).
    package init(classifier: ModelSource?) {
        self.classifier = classifier
    }

    /// The objects task's options for these, with the classifier's file resolved.
    func taskOptions() throws -> ObjectsTask.Options {
        var options = ObjectsTask.Options()
        options.multiple = shouldEnableMultipleObjects
        options.classify = shouldEnableClassification
        options.threshold = detectionConfidenceThreshold
        options.maxObjects = maximumObjectCount
        // As in ML Kit, turning classification off turns off a custom classifier too.
        options.model = shouldEnableClassification ? try classifier?.fileURL().path : nil
        options.classificationThreshold = classifierThreshold
        options.maxLabels = classifierLabelLimit
        options.detector = modelURL.path
        options.threads = threadCount
        return options
    }
}
