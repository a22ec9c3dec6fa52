import Foundation
import MLKitVision
import SwiftVisionTasks

/// Finds faces, their landmarks and contours, as ML Kit's `FaceDetector` (on MediaPipe's models).
///
/// Safe to share between threads. With ``FaceDetectorOptions/isTrackingEnabled`` successive images
/// form a stream: faces keep tracking IDs and the face mesh follows them from frame to frame, so the
/// detector runs only now and then. Feed video frames in order to
/// ``results(inVideoFrame:timestampInMilliseconds:)``.
public final class FaceDetector: Sendable {
    private let detector: Detector<FacesTask>

    private init(options: FaceDetectorOptions) {
        let taskOptions = options.taskOptions
        detector = Detector(stream: options.isTrackingEnabled, callbackQueue: options.callbackQueue) {
            try FacesTask(options: taskOptions)
        }
    }

    /// A detector with `options`, as ML Kit's `FaceDetector.faceDetector(options:)`. It does not fail:
    /// models that cannot be loaded are reported by each call, as an error in ``mlKitErrorDomain``.
    public static func faceDetector(options: FaceDetectorOptions) -> FaceDetector {
        FaceDetector(options: options)
    }

    /// A detector with ML Kit's default options, as ML Kit's `FaceDetector.faceDetector()`.
    public static func faceDetector() -> FaceDetector {
        FaceDetector(options: FaceDetectorOptions())
    }

    /// The faces in one image; with tracking enabled, the next frame of the stream.
    public func results(in image: VisionImage) throws -> [Face] {
        Self.faces(try detector.output(for: image))
    }

    /// The faces in `image`, handed to `completion` on the options' callback queue (the main queue
    /// unless set otherwise), as ML Kit's `process(_:completion:)`.
    public func process(_ image: VisionImage, completion: @escaping @Sendable ([Face]?, (any Error)?) -> Void) {
        detector.process(image, results: { $0.faces.map(Face.init) }, completion: completion)
    }

    /// The faces in `image`, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> [Face] {
        Self.faces(try await detector.output(processing: image))
    }

    /// The faces in the next frame of a video, with tracking IDs; needs tracking enabled, and
    /// timestamps must increase.
    public func results(inVideoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> [Face] {
        Self.faces(try detector.output(forVideoFrame: image, timestampInMilliseconds: timestamp))
    }

    /// Forgets tracked faces; the next frame starts a new stream.
    public func reset() {
        detector.reset()
    }

    /// Ends the detector; later calls fail with ``MLKitErrorCode/failedPrecondition``.
    public func close() {
        detector.close()
    }

    private static func faces(_ output: FacesTask.Output) -> [Face] {
        output.faces.map(Face.init)
    }
}
