import Dispatch
import Foundation
import MLKitVision
import SwiftVisionRuntime
import SwiftVisionTasks

/// Whether a pose detector's images are independent photos or a stream, as ML Kit's `PoseDetectorMode`.
public enum PoseDetectorMode: Sendable, Equatable {
    /// Successive images are frames of one video: the pose of one frame places the next frame's crop,
    /// and the detector runs only when the pose is lost.
    case stream
    /// Each image stands alone: detection, then landmarks.
    case singleImage
}

/// What the base and accurate pose detectors share, as ML Kit's `CommonPoseDetectorOptions`: make a
/// ``PoseDetectorOptions`` or an ``AccuratePoseDetectorOptions``.
public class CommonPoseDetectorOptions: @unchecked Sendable {
    /// Stream or single images; ML Kit's default is `.stream`.
    public var detectorMode: PoseDetectorMode = .stream
    /// Threads for each model's inference.
    public var threadCount = LiteRT.CompilationOptions.default.threadCount
    /// Where ``PoseDetector/process(_:completion:)`` calls its completion: the main queue, as on iOS, which
    /// a program must serve (`dispatchMain()`, `RunLoop.main.run()`); set another queue in a program
    /// without a main loop.
    public var callbackQueue: DispatchQueue = .main

    /// ML Kit's defaults.
    init() {}

    var taskOptions: PoseTask.Options {
        var options = PoseTask.Options()
        options.threads = threadCount
        return options
    }
}

/// Options of ML Kit's base pose detector, as ML Kit's `PoseDetectorOptions`: BlazePose's full landmark model.
public final class PoseDetectorOptions: CommonPoseDetectorOptions, @unchecked Sendable {
    /// ML Kit's defaults: a stream.
    override public init() {}
}

/// Options of ML Kit's accurate pose detector, as ML Kit's `AccuratePoseDetectorOptions`. Both run
/// BlazePose's full landmark model, so they give the same poses.
public final class AccuratePoseDetectorOptions: CommonPoseDetectorOptions, @unchecked Sendable {
    /// ML Kit's defaults: a stream.
    override public init() {}
}

/// Finds a body's 33 landmarks, as ML Kit's `PoseDetector` (on MediaPipe's BlazePose models).
///
/// Safe to share between threads. In ``PoseDetectorMode/stream`` mode successive images form a stream,
/// so feed video frames in order.
public final class PoseDetector: Sendable {
    private let detector: Detector<PoseTask>

    private init(options: CommonPoseDetectorOptions) {
        let taskOptions = options.taskOptions
        detector = Detector(stream: options.detectorMode == .stream, callbackQueue: options.callbackQueue) {
            try PoseTask(options: taskOptions)
        }
    }

    /// A detector with `options`, as ML Kit's `PoseDetector.poseDetector(options:)`. It does not fail:
    /// models that cannot be loaded are reported by each call, as an error in ``mlKitErrorDomain``.
    public static func poseDetector(options: CommonPoseDetectorOptions) -> PoseDetector {
        PoseDetector(options: options)
    }

    /// The poses in one image; in stream mode, the next frame of the stream.
    public func results(in image: VisionImage) throws -> [Pose] {
        try detector.output(for: image).poses.map(Pose.init)
    }

    /// The poses in `image`, handed to `completion` on the options' callback queue (the main queue unless
    /// set otherwise), as ML Kit's `process(_:completion:)`.
    public func process(_ image: VisionImage, completion: @escaping @Sendable ([Pose]?, (any Error)?) -> Void) {
        detector.process(image, results: { $0.poses.map(Pose.init) }, completion: completion)
    }

    /// The poses in `image`, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> [Pose] {
        try await detector.output(processing: image).poses.map(Pose.init)
    }

    /// Forgets the tracked pose; the next frame starts a new stream.
    public func reset() {
        detector.reset()
    }

    /// Ends the detector; later calls fail with ``MLKitErrorCode/failedPrecondition``.
    public func close() {
        detector.close()
    }
}

/// A body's pose (ML Kit's `Pose`): its 33 landmarks.
public struct Pose: Sendable, Equatable {
    /// The 33 landmarks in ``PoseLandmarkType`` order.
    public let landmarks: [PoseLandmark]

    init(_ result: PoseResult) {
        landmarks = zip(PoseLandmarkType.allCases, result.landmarks).map { type, landmark in
            PoseLandmark(
                type: type, position: Vision3DPoint(x: CGFloat(landmark.x), y: CGFloat(landmark.y), z: CGFloat(landmark.z)),
                inFrameLikelihood: landmark.presence ?? 0)
        }
    }

    /// The landmark of `type`.
    public func landmark(ofType type: PoseLandmarkType) -> PoseLandmark {
        landmarks[type.index]
    }
}

/// One landmark of a pose (ML Kit's `PoseLandmark`).
public struct PoseLandmark: Sendable, Equatable {
    /// Which landmark.
    public let type: PoseLandmarkType
    /// Its position in pixels of the upright image; `z` is depth on the scale of `x`, relative to the
    /// hips, smaller is nearer.
    public let position: Vision3DPoint
    /// How likely the landmark lies inside the image (BlazePose's presence), 0–1.
    public let inFrameLikelihood: Float
}
