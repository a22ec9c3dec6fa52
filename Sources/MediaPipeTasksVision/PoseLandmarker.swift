import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ``PoseLandmarker``, named as MediaPipe's `PoseLandmarkerOptions`. The models are the
/// installed `pose_detection.tflite` and `pose_landmark_full.tflite` (the full model of MediaPipe's
/// `pose_landmarker_full.task`).
public final class PoseLandmarkerOptions: TaskOptions, @unchecked Sendable {
    /// Most poses to find.
    public var numPoses = 1
    /// Lowest detector score that starts a pose, 0–1.
    public var minPoseDetectionConfidence: Float = 0.5
    /// Lowest pose flag of the landmark model that keeps a pose found by the detector, 0–1 (image mode).
    public var minPosePresenceConfidence: Float = 0.5
    /// Lowest pose flag that keeps a pose tracked from the previous frame rather than detected again,
    /// 0–1 (video and live-stream modes).
    public var minTrackingConfidence: Float = 0.5
    /// Whether to return each pose's segmentation mask.
    public var outputSegmentationMasks = false
    /// Receives the results of ``PoseLandmarker/detectAsync(image:timestampInMilliseconds:)``, in order,
    /// in `.liveStream` mode; held weakly.
    public weak var poseLandmarkerLiveStreamDelegate: (any PoseLandmarkerLiveStreamDelegate)?

    /// MediaPipe's defaults: one pose, image mode.
    public override init() {}

    /// The models of MediaPipe's published `pose_landmarker_full.task`, which are the installed ones.
    static let bundle = [
        BundledModel(
            name: "pose_detector.tflite", installed: "pose_detection.tflite",
            sha256: "04f5a96483f8ce5913f8730ad2aa0c4c999c80a4b75653bc0e4712de18e104b2"),
        BundledModel(
            name: "pose_landmarks_detector.tflite", installed: "pose_landmark_full.tflite",
            sha256: "82be6d591b9dad7d29fe21dc9fd892bf8b9602c458fb05209283de8282a0c488"),
    ]

    /// The task's options for these, once `baseOptions.modelAssetPath` is checked: it may name a copy of the
    /// installed `pose_landmark_full.tflite`, or MediaPipe's `pose_landmarker_full.task`, which holds the installed
    /// models.
    func taskOptions() throws -> PoseTask.Options {
        try InstalledModel.check(baseOptions.modelPath, installed: "pose_landmark_full.tflite", bundle: Self.bundle, task: "PoseLandmarker")
        var options = PoseTask.Options()
        options.maxPoses = numPoses
        options.minDetectionConfidence = minPoseDetectionConfidence
        options.minPresenceConfidence = runningMode == .image ? minPosePresenceConfidence : minTrackingConfidence
        options.segmentation = outputSegmentationMasks
        options.threads = threadCount
        return options
    }
}

/// Receives live-stream results of a ``PoseLandmarker``, as MediaPipe's `PoseLandmarkerLiveStreamDelegate`.
/// Called on the landmarker's own queue, one frame at a time, in timestamp order.
public protocol PoseLandmarkerLiveStreamDelegate: NSObjectProtocol, Sendable {
    /// The result of the frame sent with `timestampInMilliseconds`, or the error that stopped it.
    func poseLandmarker(
        _ poseLandmarker: PoseLandmarker, didFinishDetection result: PoseLandmarkerResult?, timestampInMilliseconds: Int,
        error: (any Error)?)
}

/// Finds bodies and their 33 landmarks (MediaPipe's `PoseLandmarker`) in single images, video frames
/// or a live stream; in video and live streams the landmarks of one frame place the next frame's crop
/// and the detector runs only when a pose is lost. Safe to share between threads.
public final class PoseLandmarker: Sendable {
    /// The options the landmarker was made with.
    public let options: PoseLandmarkerOptions
    private let api: VisionTaskApi<PoseTask, PoseLandmarkerResult>

    /// Loads the models (installed by `swiftvision setup`).
    public init(options: PoseLandmarkerOptions = PoseLandmarkerOptions()) throws {
        self.options = options
        let reference = WeakReference<PoseLandmarker>()
        let deliver = VisionTaskApi<PoseTask, PoseLandmarkerResult>.delivery(to: options.poseLandmarkerLiveStreamDelegate, of: reference) {
            $0.poseLandmarker($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4)
        }
        api = try VisionTaskApi(
            task: { try PoseTask(options: options.taskOptions()) }, runningMode: options.runningMode, result: PoseLandmarkerResult.init, deliver: deliver)
        reference.object = self
    }

    /// The poses of one image, in `.image` mode.
    public func detect(image: VisionImage) throws -> PoseLandmarkerResult {
        try api.run(image)
    }

    /// The poses of the next frame of a video, in `.video` mode; timestamps must increase.
    public func detect(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> PoseLandmarkerResult {
        try api.run(videoFrame: image, timestampInMilliseconds: timestamp)
    }

    /// Sends the next frame of a live stream, in `.liveStream` mode, and returns at once; timestamps
    /// must increase. Results go to the delegate, in order; one frame is processed at a time and the
    /// newest frame that arrives meanwhile goes next (older waiting ones are dropped).
    public func detectAsync(image: VisionImage, timestampInMilliseconds timestamp: Int) throws {
        try api.send(image, timestampInMilliseconds: timestamp)
    }

    /// Ends the landmarker; later calls fail with ``TasksErrorCode/invalidArgumentError``, as in MediaPipe.
    public func close() {
        api.close()
    }
}

/// What ``PoseLandmarker`` found in one image, as MediaPipe's `PoseLandmarkerResult`: one entry per pose.
public struct PoseLandmarkerResult: Sendable {
    /// Each pose's 33 landmarks, normalised to 0…1 of the upright image's width and height (`z` on the
    /// scale of `x`).
    public let landmarks: [[NormalizedLandmark]]
    /// Each pose's 33 landmarks in metres, origin between the hips.
    public let worldLandmarks: [[Landmark]]
    /// Each pose's segmentation mask over the image, when asked for; empty otherwise.
    public let segmentationMasks: [ConfidenceMask]
    /// The timestamp given with the frame; 0 for single images.
    public let timestampInMilliseconds: Int

    init(_ output: PoseTask.Output, timestamp: Int) {
        let (width, height) = (Double(output.width), Double(output.height))
        landmarks = output.poses.map { pose in
            pose.landmarks.map {
                NormalizedLandmark(x: $0.x / width, y: $0.y / height, z: $0.z / width, visibility: $0.visibility, presence: $0.presence)
            }
        }
        worldLandmarks = output.poses.map(\.worldLandmarks)
        segmentationMasks = output.poses.compactMap(\.segmentationMask)
        timestampInMilliseconds = timestamp
    }
}

/// A landmark in 0…1 of the image's width and height (MediaPipe's `NormalizedLandmark`).
public struct NormalizedLandmark: Sendable, Hashable {
    /// Distance from the left edge over the width.
    public let x: Double
    /// Distance from the top edge over the height.
    public let y: Double
    /// Depth on the scale of `x`: smaller is nearer.
    public let z: Double
    /// How likely the landmark is visible (not occluded), 0–1.
    public let visibility: Float?
    /// How likely the landmark is inside the image, 0–1.
    public let presence: Float?
}
