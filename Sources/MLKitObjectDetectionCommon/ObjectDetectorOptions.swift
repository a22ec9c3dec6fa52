import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ``ObjectDetector``, named as ML Kit's `ObjectDetectorOptions`.
public struct ObjectDetectorOptions: Sendable, Equatable {
    /// Whether frames are independent photos or a stream.
    public enum DetectorMode: Sendable, Equatable {
        /// Each image on its own; no tracking IDs.
        case singleImage
        /// Successive frames of a video or camera: objects carry tracking IDs that persist across frames.
        case stream
    }

    /// Single images or a stream; a stream by default, as in ML Kit.
    public var detectorMode: DetectorMode = .stream
    /// Report up to ``maximumObjectCount`` objects; otherwise only the most prominent one.
    public var shouldEnableMultipleObjects = false
    /// Label each object: the detector's COCO class and ML Kit's coarse category.
    public var shouldEnableClassification = false
    /// Objects reported with ``shouldEnableMultipleObjects`` (ML Kit: 5).
    public var maximumObjectCount = 5
    /// Lowest detection score to report, 0–1 (default: the model's recommended 0.25).
    public var detectionConfidenceThreshold: Float?
    /// In stream mode, ``ObjectDetector/process(_:)`` drops a frame that arrives while another is being
    /// processed instead of queueing it, as `AVCaptureVideoDataOutput.alwaysDiscardsLateVideoFrames`.
    public var alwaysDiscardsLateVideoFrames = false
    /// Threads for inference.
    public var threadCount = LiteRT.CompilationOptions.default.threadCount
    /// The detector model; the model zoo's YOLOv3-tiny by default.
    public var modelURL: URL = SwiftVisionCache.current.model(named: ObjectDetectionModel.defaultModelName)

    /// The custom classifier that labels each object's crop instead of the detector's classes; nil for none.
    let classifier: ModelSource?
    /// Lowest label confidence of the custom classifier; nil takes the model metadata's score threshold, else 0.
    public var classificationConfidenceThreshold: Float?
    /// Most labels per object from the custom classifier.
    public var maxPerObjectLabelCount = 10

    /// ML Kit's defaults.
    public init() {
        classifier = nil
    }

    /// Objects labelled by the `.tflite` classifier `localModel` (ML Kit's `CustomObjectDetectorOptions`).
    public init(localModel: LocalModel) {
        classifier = .local(localModel)
        shouldEnableClassification = true
    }

    /// Objects labelled by a downloaded remote classifier.
    public init(remoteModel: RemoteModel, modelManager: ModelManager = .modelManager()) {
        classifier = .remote(remoteModel, modelManager)
        shouldEnableClassification = true
    }
}

extension ObjectDetectorOptions {
    /// The objects task's options for these, with the classifier's file resolved.
    func taskOptions() throws -> ObjectTask.Options {
        var options = ObjectTask.Options()
        options.multiple = shouldEnableMultipleObjects
        options.classify = shouldEnableClassification
        options.threshold = detectionConfidenceThreshold
        options.maxObjects = maximumObjectCount
        // As in ML Kit, turning classification off turns off a custom classifier too.
        options.model = shouldEnableClassification
            ? try classifier?.fileURL().path : nil
        options.classificationThreshold = classificationConfidenceThreshold
        options.maxLabels = maxPerObjectLabelCount
        options.detector = modelURL.path
        options.threads = threadCount
        return options
    }
}
