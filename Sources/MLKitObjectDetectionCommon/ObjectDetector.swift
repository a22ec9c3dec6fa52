import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Finds objects in images and streams (ML Kit's `ObjectDetector`, on the model zoo's YOLOv3-tiny).
///
/// In stream mode objects keep tracking IDs across frames (ByteTrack association), also through a few
/// frames of occlusion. Safe to share between threads; stream frames are processed one at a time.
public final class ObjectDetector: Sendable {
    /// The options the detector was made with.
    public let options: ObjectDetectorOptions
    private let runner: TaskRunner<ObjectTask>

    /// Loads the detector model (installed by `make run` / `scripts/build-models.sh`).
    public init(options: ObjectDetectorOptions = ObjectDetectorOptions()) throws {
        self.options = options
        let stream = options.detectorMode == .stream
        runner = TaskRunner(
            task: try ObjectTask(options: try options.taskOptions()), runningMode: stream ? .video : .image,
            discardsLateFrames: stream && options.alwaysDiscardsLateVideoFrames)
    }

    /// A detector with `options`, as ML Kit's `ObjectDetector.objectDetector(options:)`.
    public static func objectDetector(options: ObjectDetectorOptions = ObjectDetectorOptions()) throws -> ObjectDetector {
        try ObjectDetector(options: options)
    }

    /// The class names of the detector.
    public var labels: [String] { runner.task.labels }

    /// The objects in `image`; in stream mode, the next frame of the stream.
    public func results(in image: VisionImage) throws -> [DetectedObject] {
        try (options.detectorMode == .stream ? runner.run(videoFrame: image) : runner.run(image)).objects
    }

    /// The objects in the next frame of a video, with tracking IDs, in stream mode; timestamps must increase.
    public func results(inVideoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> [DetectedObject] {
        try runner.run(videoFrame: image, timestampInMilliseconds: timestamp).objects
    }

    /// The objects in `image`, computed off the caller's task. With
    /// ``ObjectDetectorOptions/alwaysDiscardsLateVideoFrames`` in stream mode, a call made while another
    /// is running fails at once with ``VisionTaskError/frameDropped``.
    public func process(_ image: VisionImage) async throws -> [DetectedObject] {
        try await runner.process(image).objects
    }

    /// The objects in `image`, delivered to `completion` (ML Kit's callback style).
    public func process(_ image: VisionImage, completion: @escaping @Sendable ([DetectedObject]?, (any Error)?) -> Void) {
        complete(completion) { try await self.process(image) }
    }

    /// Forgets tracked objects; the next frame starts a new stream.
    public func reset() {
        runner.reset()
    }

    /// Ends the detector; later calls fail with ``VisionTaskError/closed``.
    public func close() {
        runner.close()
    }
}
