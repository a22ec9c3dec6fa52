import Foundation
import MLKitVision
import SwiftVisionTasks

/// Finds objects in images and streams, as ML Kit's `ObjectDetector` (on the model zoo's YOLOv4-tiny).
///
/// In stream mode objects keep tracking IDs across frames (ByteTrack association), also through a few
/// frames of occlusion. Safe to share between threads; stream frames are processed one at a time.
public final class ObjectDetector: Sendable {
    private let detector: Detector<ObjectsTask>

    private init(options: CommonObjectDetectorOptions) {
        detector = Detector(
            stream: options.detectorMode == .stream, discardsLateFrames: options.alwaysDiscardsLateVideoFrames,
            callbackQueue: options.callbackQueue
        ) {
            try ObjectsTask(options: try options.taskOptions())
        }
    }

    /// A detector with `options` (``ObjectDetectorOptions`` or ``CustomObjectDetectorOptions``), as ML Kit's
    /// `ObjectDetector.objectDetector(options:)`. It does not fail: models that cannot be loaded are
    /// reported by each call, as an error in ``mlKitErrorDomain``.
    public static func objectDetector(options: CommonObjectDetectorOptions) -> ObjectDetector {
        ObjectDetector(options: options)
    }

    /// A detector with ML Kit's default options, as ML Kit's `ObjectDetector.objectDetector()`.
    public static func objectDetector() -> ObjectDetector {
        ObjectDetector(options: CommonObjectDetectorOptions(classifier: nil))
    }

    /// The class names of the detector; empty when its model did not load.
    public var labels: [String] { (try? detector.task().labels) ?? [] }

    /// The objects in `image`; in stream mode, the next frame of the stream.
    public func results(in image: VisionImage) throws -> [Object] {
        try detector.output(for: image).objects.map(Object.init)
    }

    /// The objects in the next frame of a video, with tracking IDs, in stream mode; timestamps must increase.
    public func results(inVideoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> [Object] {
        try detector.output(forVideoFrame: image, timestampInMilliseconds: timestamp).objects.map(Object.init)
    }

    /// The objects in `image`, handed to `completion` on the options' callback queue (the main queue
    /// unless set otherwise), as ML Kit's `process(_:completion:)`. With
    /// ``CommonObjectDetectorOptions/alwaysDiscardsLateVideoFrames`` in stream mode, an image that arrives
    /// while another is processed fails with ``MLKitErrorCode/cancelled``.
    public func process(_ image: VisionImage, completion: @escaping @Sendable ([Object]?, (any Error)?) -> Void) {
        detector.process(image, results: { $0.objects.map(Object.init) }, completion: completion)
    }

    /// The objects in `image`, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> [Object] {
        try await detector.output(processing: image).objects.map(Object.init)
    }

    /// Forgets tracked objects; the next frame starts a new stream.
    public func reset() {
        detector.reset()
    }

    /// Ends the detector; later calls fail with ``MLKitErrorCode/failedPrecondition``.
    public func close() {
        detector.close()
    }
}
