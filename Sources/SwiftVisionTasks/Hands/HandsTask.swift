import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Finds hands and their 21 landmarks as MediaPipe's hand landmarker: the palm detector, then the
/// landmark model (full, or lite with ``Options/modelComplexity`` 0) on a turned crop of each hand, with world landmarks in metres and handedness; in a
/// stream, the landmarks of one frame place the next frame's crop.
public struct HandsTask: VisionTask {
    /// The settings of the hand task, named as the `hands` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// Most hands to report (MediaPipe's `num_hands`).
        public var maxHands = 2
        /// Lowest palm detector score that starts a hand (MediaPipe's `min_hand_detection_confidence`), 0–1.
        public var minDetectionConfidence: Float = 0.5
        /// Lowest hand flag of the landmark model that keeps a hand (MediaPipe's `min_tracking_confidence`,
        /// also `min_hand_presence_confidence`), 0–1.
        public var minPresenceConfidence: Float = 0.5
        /// Which models run, as MediaPipe Hands' `model_complexity`: 1, the full palm detector and landmark
        /// model; 0, the lite ones (`palm_detection_lite.tflite`, `hand_landmark_lite.tflite`), which take
        /// about half the time and are a little less precise.
        public var modelComplexity = 1
        /// Threads for each model's inference; nil for the default.
        public var threads: Int?

        /// The default settings.
        public init() {}
    }

    /// The hands of one image or frame.
    public struct Output: Codable, Sendable {
        /// The upright image's width in pixels.
        public var width: Int
        /// The upright image's height in pixels.
        public var height: Int
        /// The hands: newly detected ones first, then the tracked ones (MediaPipe's order).
        public var hands: [HandResult]

        /// The hands of an image `width` × `height` pixels.
        public init(width: Int, height: Int, hands: [HandResult]) {
            self.width = width
            self.height = height
            self.hands = hands
        }
    }

    /// The tracked hands of a stream.
    public typealias StreamState = LandmarkTracker

    /// Named `hands`, with MediaPipe's full palm detector and hand landmark model (the lite ones with
    /// ``Options/modelComplexity`` 0).
    public static let descriptor = TaskDescriptor(
        name: "hands", title: "Hands", summary: "Hands: 21 landmarks, world landmarks, handedness, tracking",
        tracksAcrossFrames: true, models: ["palm_detection_full.tflite", "hand_landmark_full.tflite"],
        bones: HandLandmarkType.connections)
    /// The default settings.
    public static var defaultOptions: Options { Options() }

    /// The settings the task was made with.
    public let options: Options
    private let engine: HandEngine

    /// Checks the options and loads the models from `store`.
    public init(options: Options, store: ModelStore) throws {
        let configuration = try LandmarkConfiguration(checking: options)
        guard let models = HandEngine.Models(complexity: options.modelComplexity) else {
            throw VisionTaskError.invalidOption("must be 0 (lite) or 1 (full), not \(options.modelComplexity)", key: "modelComplexity")
        }
        self.options = options
        engine = try HandEngine(configuration: configuration, models: models, store: store)
    }

    /// The hands in one image on its own.
    public func output(for image: VisionImage) throws -> Output {
        report(try engine.analyze(image), in: image)
    }

    /// The hands in the next frame of a stream, following the previous frame's landmarks.
    public func output(forFrame image: VisionImage, state: inout LandmarkTracker) throws -> Output {
        report(try state.next(in: image, engine: engine), in: image)
    }

    private func report(_ hands: [HandAnalysis], in image: VisionImage) -> Output {
        Output(width: image.width, height: image.height, hands: hands.map(HandResult.init))
    }
}

extension HandsTask.Options: LandmarkTaskOptions {
    var maximumCount: (value: Int, name: String) { (maxHands, "maxHands") }
}
