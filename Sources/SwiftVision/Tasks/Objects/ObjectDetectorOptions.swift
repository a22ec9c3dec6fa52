import Foundation

/// Options of ``ObjectDetector``, named as ML Kit's `ObjectDetectorOptions`.
public struct ObjectDetectorOptions: Sendable, Equatable {
    /// Whether frames are independent photos or a stream.
    public enum DetectorMode: Sendable, Equatable {
        /// Each image on its own; no tracking IDs.
        case singleImage
        /// Successive frames of a video or camera: objects carry tracking IDs that persist across frames.
        case stream
    }

    public var detectorMode: DetectorMode = .singleImage
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

    public init() {}
}
