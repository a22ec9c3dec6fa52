import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// MediaPipe's face detector graph, the faces engine's detector on its own (what MediaPipe's `FaceDetector`
/// runs): the short-range BlazeFace on the whole image sampled as MediaPipe samples it, detections scoring
/// at least the confidence, weighted suppression. Unlike ``FacesTask``, it keeps every detection the model
/// scores high enough (no closer looks, no face mesh checks) and reports the detector's own six key points.
/// Not in the registry: the `faces` task serves the command and the service.
package struct FaceDetectionTask: VisionTask {
    /// The detector's settings, MediaPipe's names in the comments.
    package struct Options: Codable, Hashable, Sendable {
        /// `minDetectionConfidence`, 0–1.
        package var minimumConfidence: Float
        /// `minSuppressionThreshold`, 0–1.
        package var suppressionThreshold: Float
        /// Threads for each inference.
        package var threads: Int

        /// MediaPipe's defaults (confidence 0.5, suppression 0.3) unless given.
        package init(
            minimumConfidence: Float = 0.5, suppressionThreshold: Float = 0.3,
            threads: Int = LiteRT.CompilationOptions.default.threadCount
        ) {
            self.minimumConfidence = minimumConfidence
            self.suppressionThreshold = suppressionThreshold
            self.threads = threads
        }
    }

    /// One face: its box and key points in upright pixels, and its score.
    package struct Face: Codable, Sendable {
        package var boundingBox: CGRect
        package var score: Float
        package var keypoints: [CGPoint]
    }

    /// The faces of one image, most confident first.
    package struct Output: Codable, Sendable {
        package var width: Int
        package var height: Int
        package var faces: [Face]
    }

    /// The installed model the detector runs.
    package static let modelName = "face_detection_short_range.tflite"

    package static let descriptor = TaskDescriptor(
        name: "mediapipe-face-detector", title: "FaceDetector", summary: "Faces and their key points, as MediaPipe's FaceDetector",
        models: [modelName])
    package static var defaultOptions: Options { Options() }

    package let options: Options
    private let model: FaceDetectionModel

    /// Checks the options and loads the short-range detector from `store`.
    package init(options: Options, store: ModelStore) throws {
        for (name, value) in [("minDetectionConfidence", options.minimumConfidence), ("minSuppressionThreshold", options.suppressionThreshold)]
        where !(0...1).contains(value) {
            throw VisionTaskError.invalidOption("\(name) must lie in 0…1, not \(value)")
        }
        guard options.threads > 0 else { throw VisionTaskError.invalidOption("threadCount must be at least 1, not \(options.threads)") }
        self.options = options
        model = try FaceDetectionModel(range: .short, options: LiteRT.CompilationOptions(threadCount: options.threads), store: store)
    }

    /// The faces of one image.
    package func output(for image: VisionImage) throws -> Output {
        let found = try model.detectAsMediaPipe(in: image, minimumScore: options.minimumConfidence)
        let kept = NonMaxSuppression.weighted(found, threshold: Double(options.suppressionThreshold))
        return Output(
            width: image.width, height: image.height,
            faces: kept.map { Face(boundingBox: $0.boundingBox, score: $0.score, keypoints: $0.keypoints) })
    }
}
