import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// One of MediaPipe's BlazeFace detectors (SSD anchors, sigmoid scores, six key points).
struct FaceDetectionModel: Sendable {
    enum Range: Sendable, Hashable {
        /// `face_detection_short_range.tflite`: faces within about 2 m, 128×128 input.
        case short
        /// `face_detection_full_range_sparse.tflite`: faces up to about 5 m, 192×192 input.
        case full

        /// The side of the model's square input, in pixels.
        var inputSize: Int { self == .short ? 128 : 192 }
    }

    let range: Range
    private let model: KeypointDetectionModel

    init(range: Range, options: LiteRT.CompilationOptions, store: ModelStore, cache: SwiftVisionCache = .current) throws {
        self.range = range
        let size = range.inputSize
        model = try KeypointDetectionModel(
            name: range == .short ? "face_detection_short_range.tflite" : "face_detection_full_range_sparse.tflite",
            size: size,
            anchors: SSDAnchors(
                inputWidth: size, inputHeight: size, strides: range == .short ? [8, 16, 16, 16] : [4],
                interpolatedScaleAspectRatio: range == .short ? 1 : 0),
            keypointCount: 6, minimumScore: range == .short ? 0.5 : 0.6, options: options, store: store, cache: cache)
    }

    /// Faces in `region` (upright pixels) scoring at least `minimumScore` (MediaPipe's `min_score_thresh`
    /// unless given), before suppression.
    func detect(in image: VisionImage, region: CGRect? = nil, minimumScore: Float? = nil) throws -> [Detection] {
        try model.detect(in: image, region: region, minimumScore: minimumScore)
    }

    /// MediaPipe's `min_score_thresh` for this model.
    var minimumScore: Float { model.minimumScore }

    /// Faces in the whole image sampled as MediaPipe's FaceDetector samples it (one bilinear warp of the
    /// letterboxed square), scoring at least `minimumScore` (`min_score_thresh` unless given), before suppression.
    func detectAsMediaPipe(in image: VisionImage, minimumScore: Float? = nil) throws -> [Detection] {
        try model.detectAsMediaPipe(in: image, minimumScore: minimumScore)
    }
}
