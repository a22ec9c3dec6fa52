import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ``PoseDetector``, named as ML Kit's `PoseDetectorOptions`.
public struct PoseDetectorOptions: Sendable, Equatable {
    /// Whether successive images form a stream.
    public enum DetectorMode: Sendable, Equatable {
        /// Successive images are frames of one video: the pose of one frame places the next frame's
        /// crop, and the detector runs only when the pose is lost.
        case stream
        /// Each image stands alone: detection, then landmarks.
        case singleImage
    }

    /// Stream or single images; ML Kit's default is `.stream`.
    public var detectorMode: DetectorMode = .stream
    /// Threads for each model's inference.
    public var threadCount = LiteRT.CompilationOptions.default.threadCount

    /// ML Kit's defaults.
    public init() {}

    var taskOptions: PoseTask.Options {
        var options = PoseTask.Options()
        options.threads = threadCount
        return options
    }
}

/// ML Kit's accurate pose options. Both options run BlazePose's full landmark model, so they are one type.
public typealias AccuratePoseDetectorOptions = PoseDetectorOptions

/// Finds a body's 33 landmarks (ML Kit's `PoseDetector`, on MediaPipe's BlazePose models).
///
/// Safe to share between threads. In ``PoseDetectorOptions/DetectorMode/stream`` mode successive
/// images form a stream, so feed video frames in order.
public final class PoseDetector: Sendable {
    /// The options the detector was made with.
    public let options: PoseDetectorOptions
    private let runner: TaskRunner<PoseTask>

    /// Loads the models (installed by `swiftvision setup`).
    public init(options: PoseDetectorOptions = PoseDetectorOptions()) throws {
        self.options = options
        runner = TaskRunner(task: try PoseTask(options: options.taskOptions), runningMode: options.detectorMode == .stream ? .video : .image)
    }

    /// A detector with `options`, as ML Kit's `PoseDetector.poseDetector(options:)`.
    public static func poseDetector(options: PoseDetectorOptions = PoseDetectorOptions()) throws -> PoseDetector {
        try PoseDetector(options: options)
    }

    /// The poses in one image; in stream mode, the next frame of the stream.
    public func results(in image: VisionImage) throws -> [Pose] {
        poses(options.detectorMode == .stream ? try runner.run(videoFrame: image) : try runner.run(image))
    }

    /// The poses in `image`, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> [Pose] {
        poses(try await runner.process(image))
    }

    /// The poses in `image`, delivered to `completion` off the caller's thread (ML Kit's callback style).
    public func process(_ image: VisionImage, completion: @escaping @Sendable ([Pose]?, (any Error)?) -> Void) {
        complete(completion) { try await self.process(image) }
    }

    /// Forgets the tracked pose; the next frame starts a new stream.
    public func reset() {
        runner.reset()
    }

    /// Ends the detector; later calls fail with ``VisionTaskError/closed``.
    public func close() {
        runner.close()
    }

    private func poses(_ output: PoseTask.Output) -> [Pose] {
        output.poses.map(Pose.init)
    }
}

/// A body's pose (ML Kit's `Pose`): its 33 landmarks.
public struct Pose: Sendable, Equatable {
    /// The 33 landmarks in ``PoseLandmarkType`` order.
    public let landmarks: [PoseLandmark]

    init(_ result: PoseResult) {
        landmarks = zip(PoseLandmarkType.allCases, result.landmarks).map { type, landmark in
            PoseLandmark(
                type: type, position: Vision3DPoint(x: landmark.x, y: landmark.y, z: landmark.z),
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

/// A point in three dimensions (ML Kit's `Vision3DPoint`).
public struct Vision3DPoint: Sendable, Equatable {
    /// Distance from the left edge, in pixels.
    public let x: Double
    /// Distance from the top edge, in pixels.
    public let y: Double
    /// Depth, on the scale of `x`.
    public let z: Double
}
