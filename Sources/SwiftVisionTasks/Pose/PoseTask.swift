import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Finds bodies and their 33 landmarks as MediaPipe's pose landmarker: BlazePose's detector, then the
/// full landmark model on a turned crop of the body, with world landmarks in metres and, when asked, a
/// segmentation mask; in a stream, the landmarks of one frame place the next frame's crop.
public struct PoseTask: VisionTask {
    /// The settings of the pose task, named as the `pose` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// Most bodies to report (MediaPipe's `num_poses`; its pose graph finds one).
        public var maxPoses = 1
        /// Lowest detector score that starts a pose (MediaPipe's `min_pose_detection_confidence`), 0–1.
        public var minDetectionConfidence: Float = 0.5
        /// Lowest pose flag of the landmark model that keeps a pose (MediaPipe's `min_tracking_confidence`,
        /// also `min_pose_presence_confidence`), 0–1.
        public var minPresenceConfidence: Float = 0.5
        /// Compute each body's segmentation mask (MediaPipe's `output_segmentation_masks`): in
        /// ``PoseResult/segmentationMask`` and, in the JSON, as a ``SegmentationMask`` object per pose.
        public var segmentation = false
        /// Threads for each model's inference; nil for the default.
        public var threads: Int?

        /// The default settings.
        public init() {}
    }

    /// The poses of one image or frame.
    public struct Output: Codable, Sendable {
        /// The upright image's width in pixels.
        public var width: Int
        /// The upright image's height in pixels.
        public var height: Int
        /// The bodies, the best detected first (tracked bodies first in a stream).
        public var poses: [PoseResult]

        /// The poses of an image `width` × `height` pixels.
        public init(width: Int, height: Int, poses: [PoseResult]) {
            self.width = width
            self.height = height
            self.poses = poses
        }
    }

    /// The tracked poses of a stream.
    public typealias StreamState = LandmarkTracker

    /// Named `pose`, with BlazePose's detector and full landmark model.
    public static let descriptor = TaskDescriptor(
        name: "pose", title: "Pose", summary: "Body poses: 33 landmarks with visibility, world landmarks, tracking",
        tracksAcrossFrames: true, models: ["pose_detection.tflite", "pose_landmark_full.tflite"],
        bones: PoseLandmarkType.connections)
    /// The default settings.
    public static var defaultOptions: Options { Options() }

    /// The settings the task was made with.
    public let options: Options
    private let engine: PoseEngine

    /// Checks the options and loads the models from `store`.
    public init(options: Options, store: ModelStore) throws {
        self.options = options
        engine = try PoseEngine(configuration: LandmarkConfiguration(checking: options), segmentation: options.segmentation, store: store)
    }

    /// The poses in one image on its own.
    public func output(for image: VisionImage) throws -> Output {
        report(try engine.analyze(image), in: image)
    }

    /// The poses in the next frame of a stream, following the previous frame's landmarks.
    public func output(forFrame image: VisionImage, state: inout LandmarkTracker) throws -> Output {
        report(try state.next(in: image, engine: engine), in: image)
    }

    private func report(_ poses: [PoseAnalysis], in image: VisionImage) -> Output {
        Output(width: image.width, height: image.height, poses: poses.map(PoseResult.init))
    }
}

extension PoseTask.Options: LandmarkTaskOptions {
    var maximumCount: (value: Int, name: String) { (maxPoses, "maxPoses") }
}
