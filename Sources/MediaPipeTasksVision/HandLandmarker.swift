import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ``HandLandmarker``, as MediaPipe's `HandLandmarkerOptions` (a class, set on a `let`). The models are the
/// installed `palm_detection_full.tflite` and `hand_landmark_full.tflite` (those of MediaPipe's
/// `hand_landmarker.task`).
public final class HandLandmarkerOptions: TaskOptions, @unchecked Sendable {
    /// Most hands to find.
    public var numHands = 1
    /// Lowest palm detector score that starts a hand, 0–1.
    public var minHandDetectionConfidence: Float = 0.5
    /// Lowest hand flag of the landmark model that keeps a hand found by the detector, 0–1 (image mode).
    public var minHandPresenceConfidence: Float = 0.5
    /// Lowest hand flag that keeps a hand tracked from the previous frame, 0–1 (video and live-stream modes).
    public var minTrackingConfidence: Float = 0.5
    /// Receives the results of ``HandLandmarker/detectAsync(image:timestampInMilliseconds:)``, in order,
    /// in `.liveStream` mode; held weakly.
    public weak var handLandmarkerLiveStreamDelegate: (any HandLandmarkerLiveStreamDelegate)?

    /// MediaPipe's defaults: one hand, image mode.
    public override init() {}

    /// The models of MediaPipe's published `hand_landmarker.task`, which are the installed ones.
    static let bundle = [
        BundledModel(
            name: "hand_detector.tflite", installed: "palm_detection_full.tflite",
            sha256: "945f713bc23570bd4ed60f848c401dc8eaf95713183d43ba14cf12e467d27a7d"),
        BundledModel(
            name: "hand_landmarks_detector.tflite", installed: "hand_landmark_full.tflite",
            sha256: "6acda74af3fbf40e68265c20c7394b2bad81a16a481dcd79ad7a081887c3d6b9"),
    ]

    /// The task's options for these, once `baseOptions.modelAssetPath` is checked: it may name a copy of the
    /// installed `hand_landmark_full.tflite`, or MediaPipe's `hand_landmarker.task`, which holds the installed models.
    func taskOptions() throws -> HandsTask.Options {
        try InstalledModel.check(baseOptions.modelPath, installed: "hand_landmark_full.tflite", bundle: Self.bundle, task: "HandLandmarker")
        var options = HandsTask.Options()
        options.maxHands = numHands
        options.minDetectionConfidence = minHandDetectionConfidence
        options.minPresenceConfidence = runningMode == .image ? minHandPresenceConfidence : minTrackingConfidence
        options.threads = threadCount
        return options
    }
}

/// Receives live-stream results of a ``HandLandmarker``, as MediaPipe's `HandLandmarkerLiveStreamDelegate`.
/// Called on the landmarker's own queue, one frame at a time, in timestamp order.
public protocol HandLandmarkerLiveStreamDelegate: NSObjectProtocol, Sendable {
    /// The result of the frame sent with `timestampInMilliseconds`, or the error that stopped it.
    func handLandmarker(
        _ handLandmarker: HandLandmarker, didFinishDetection result: HandLandmarkerResult?, timestampInMilliseconds: Int,
        error: (any Error)?)
}

/// Finds hands, their 21 landmarks and handedness (MediaPipe's `HandLandmarker`) in single images, video
/// frames or a live stream; in video and live streams each hand's landmarks place its next crop and the
/// palm detector runs only while fewer hands than ``HandLandmarkerOptions/numHands`` are tracked. Safe
/// to share between threads.
public final class HandLandmarker: Sendable {
    /// The options the landmarker was made with.
    public let options: HandLandmarkerOptions
    private let api: VisionTaskApi<HandsTask, HandLandmarkerResult>

    /// Loads the models (installed by `swiftvision setup`).
    public init(options: HandLandmarkerOptions = HandLandmarkerOptions()) throws {
        self.options = options
        let reference = WeakReference<HandLandmarker>()
        let deliver = VisionTaskApi<HandsTask, HandLandmarkerResult>.delivery(to: options.handLandmarkerLiveStreamDelegate, of: reference) {
            $0.handLandmarker($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4)
        }
        api = try VisionTaskApi(
            task: { try HandsTask(options: options.taskOptions()) }, runningMode: options.runningMode, result: HandLandmarkerResult.init, deliver: deliver)
        reference.object = self
    }

    /// The hands of one image, in `.image` mode.
    public func detect(image: VisionImage) throws -> HandLandmarkerResult {
        try api.run(image)
    }

    /// The hands of the next frame of a video, in `.video` mode; timestamps must increase.
    public func detect(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> HandLandmarkerResult {
        try api.run(videoFrame: image, timestampInMilliseconds: timestamp)
    }

    /// Sends the next frame of a live stream, in `.liveStream` mode, and returns at once; timestamps must
    /// increase. Results go to the delegate, in order; one frame is processed at a time and the newest
    /// frame that arrives meanwhile goes next (older waiting ones are dropped).
    public func detectAsync(image: VisionImage, timestampInMilliseconds timestamp: Int) throws {
        try api.send(image, timestampInMilliseconds: timestamp)
    }

    /// Ends the landmarker; later calls fail with ``TasksErrorCode/invalidArgumentError``, as in MediaPipe.
    public func close() {
        api.close()
    }
}

/// What ``HandLandmarker`` found in one image, as MediaPipe's `HandLandmarkerResult`: one entry per hand.
public struct HandLandmarkerResult: Sendable {
    /// Each hand's 21 landmarks, normalised to 0…1 of the upright image's width and height (`z` on the
    /// scale of `x`, relative to the wrist).
    public let landmarks: [[NormalizedLandmark]]
    /// Each hand's 21 landmarks in metres, origin at the hand's centre.
    public let worldLandmarks: [[Landmark]]
    /// Each hand's handedness: one category, `Left` or `Right` (as MediaPipe labels it: see ``Handedness``).
    public let handedness: [[ResultCategory]]
    /// The timestamp given with the frame; 0 for single images.
    public let timestampInMilliseconds: Int

    init(_ output: HandsTask.Output, timestamp: Int) {
        let (width, height) = (Double(output.width), Double(output.height))
        landmarks = output.hands.map { hand in
            hand.landmarks.map { NormalizedLandmark(x: $0.x / width, y: $0.y / height, z: $0.z / width, visibility: nil, presence: nil) }
        }
        worldLandmarks = output.hands.map(\.worldLandmarks)
        handedness = output.hands.map { hand in
            let index = hand.handedness == .left ? 0 : 1
            return [ResultCategory(index: index, score: hand.handednessScore, categoryName: hand.handedness.rawValue, displayName: hand.handedness.rawValue)]
        }
        timestampInMilliseconds = timestamp
    }
}
