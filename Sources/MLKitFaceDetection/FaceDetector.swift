import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Finds faces, their landmarks and contours (ML Kit's `FaceDetector`, on MediaPipe's models).
///
/// Safe to share between threads. With ``FaceDetectorOptions/isTrackingEnabled`` successive images
/// form a stream: faces keep tracking IDs and the face mesh follows them from frame to frame, so the
/// detector runs only now and then. Feed video frames in order to
/// ``results(inVideoFrame:timestampInMilliseconds:)``.
public final class FaceDetector: Sendable {
    /// The options the detector was made with.
    public let options: FaceDetectorOptions
    private let runner: TaskRunner<FaceTask>

    /// Loads the models (installed by `swiftvision setup`).
    public init(options: FaceDetectorOptions = FaceDetectorOptions()) throws {
        self.options = options
        runner = TaskRunner(
            task: try FaceTask(options: options.taskOptions), runningMode: options.isTrackingEnabled ? .video : .image)
    }

    /// A detector with `options`, as ML Kit's `FaceDetector.faceDetector(options:)`.
    public static func faceDetector(options: FaceDetectorOptions = FaceDetectorOptions()) throws -> FaceDetector {
        try FaceDetector(options: options)
    }

    /// The faces in one image; with tracking enabled, the next frame of the stream.
    public func results(in image: VisionImage) throws -> [Face] {
        let output = options.isTrackingEnabled ? try runner.run(videoFrame: image) : try runner.run(image)
        return faces(output)
    }

    /// The faces in `image`, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> [Face] {
        faces(try await runner.process(image))
    }

    /// The faces in `image`, delivered to `completion` off the caller's thread (ML Kit's callback style).
    public func process(_ image: VisionImage, completion: @escaping @Sendable ([Face]?, (any Error)?) -> Void) {
        complete(completion) { try await self.process(image) }
    }

    /// The faces in the next frame of a video, with tracking IDs; needs tracking enabled, and
    /// timestamps must increase.
    public func results(inVideoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> [Face] {
        faces(try runner.run(videoFrame: image, timestampInMilliseconds: timestamp))
    }

    /// Forgets tracked faces; the next frame starts a new stream.
    public func reset() {
        runner.reset()
    }

    /// Ends the detector; later calls fail with ``VisionTaskError/closed``.
    public func close() {
        runner.close()
    }

    private func faces(_ output: FaceTask.Output) -> [Face] {
        output.faces.map { Face($0, options: options) }
    }
}
