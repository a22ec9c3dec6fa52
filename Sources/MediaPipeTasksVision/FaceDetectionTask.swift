import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// What ``FaceDetector`` runs: MediaPipe's face detector graph, the short-range BlazeFace on the whole
/// image sampled as MediaPipe samples it, detections scoring at least the confidence, weighted
/// suppression. Unlike the faces task, it keeps every detection the model scores high enough (no
/// closer looks, no face mesh checks) and reports the detector's own key points.
struct FaceDetectionTask: VisionTask {
    /// The detector's settings, MediaPipe's names in the comments.
    struct Options: Codable, Hashable, Sendable {
        /// `minDetectionConfidence`, 0–1.
        var minimumConfidence: Float = 0.5
        /// `minSuppressionThreshold`, 0–1.
        var suppressionThreshold: Float = 0.3
        /// Threads for each inference.
        var threads = LiteRT.CompilationOptions.default.threadCount
    }

    /// One face: its box and key points in upright pixels, and its score.
    struct Face: Codable, Sendable {
        var boundingBox: CGRect
        var score: Float
        var keypoints: [CGPoint]
    }

    /// The faces of one image, most confident first.
    struct Output: Codable, Sendable {
        var width: Int
        var height: Int
        var faces: [Face]
    }

    /// The installed model the detector runs.
    static let modelName = "face_detection_short_range.tflite"

    static let descriptor = TaskDescriptor(
        name: "mediapipe-face-detector", title: "FaceDetector", summary: "Faces and their key points, as MediaPipe's FaceDetector",
        models: [modelName])
    static var defaultOptions: Options { Options() }

    let options: Options
    private let model: FaceDetectionModel

    init(options: Options, store: ModelStore) throws {
        for (name, value) in [("minDetectionConfidence", options.minimumConfidence), ("minSuppressionThreshold", options.suppressionThreshold)]
        where !(0...1).contains(value) {
            throw VisionTaskError.invalidOption("\(name) must lie in 0…1, not \(value)")
        }
        guard options.threads > 0 else { throw VisionTaskError.invalidOption("threadCount must be at least 1, not \(options.threads)") }
        self.options = options
        model = try FaceDetectionModel(range: .short, options: LiteRT.CompilationOptions(threadCount: options.threads), store: store)
    }

    func output(for image: VisionImage) throws -> Output {
        let found = try model.detectAsMediaPipe(in: image, minimumScore: options.minimumConfidence)
        let kept = NonMaxSuppression.weighted(found, threshold: Double(options.suppressionThreshold))
        return Output(
            width: image.width, height: image.height,
            faces: kept.map { Face(boundingBox: $0.boundingBox, score: $0.score, keypoints: $0.keypoints) })
    }
}
