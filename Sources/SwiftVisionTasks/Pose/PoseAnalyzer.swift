import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// One body found by the pose engine, in pixels of the upright image.
struct PoseAnalysis: Sendable {
    /// The pose flag of the landmark model, 0–1.
    var score: Float
    /// The 33 landmarks in ``PoseLandmarkType`` order.
    var landmarks: [Landmark]
    /// The 33 world landmarks in metres, origin between the hips.
    var worldLandmarks: [Landmark]
    /// The body's segmentation, when asked for.
    var segmentationMask: ConfidenceMask?
    /// The two auxiliary landmarks, hips centre and body scale point, which place the next frame's crop.
    var auxiliary: [CGPoint]

    /// The box around the 33 landmarks.
    var boundingBox: CGRect { landmarks.map(\.point).boundingBox }

    /// The same pose seen in a mirror of an image `width` wide: coordinates flip, the subject's sides stay.
    func mirrored(inWidth width: Double) -> PoseAnalysis {
        var pose = self
        pose.landmarks = landmarks.map { with($0) { $0.x = width - $0.x } }
        pose.worldLandmarks = worldLandmarks.map { with($0) { $0.x = -$0.x } }
        pose.segmentationMask = segmentationMask?.mirrored()
        pose.auxiliary = auxiliary.map { $0.mirroredHorizontally(inWidth: width) }
        return pose
    }
}

/// The pose engine of ``PoseTask``, as MediaPipe's pose landmark graph (`pose_landmark_cpu.pbtxt`):
/// BlazePose's detector finds bodies by their face and gives the hips centre and a point fixing the
/// body's size and direction; a turned square crop around them goes to the landmark model.
final class PoseAnalyzer: Sendable {
    struct Configuration: Sendable, Hashable {
        /// The detector's `min_score_thresh`.
        var minimumDetectionConfidence: Float
        /// The pose flag below which a crop holds no body (the `ThresholdingCalculator`'s threshold).
        var minimumPresence: Float
        var maximumPoses: Int
        var segmentation: Bool
        var threads: Int
    }

    let configuration: Configuration
    private let detector: KeypointDetectionModel
    private let landmarkModel: PoseLandmarkModel

    init(configuration: Configuration, store: ModelStore) throws {
        self.configuration = configuration
        let options = LiteRT.CompilationOptions(threadCount: configuration.threads)
        // pose_detection_cpu.pbtxt: 224×224 letterboxed in −1…1; five anchor layers of strides 8, 16, 32, 32, 32
        // with aspect ratio 1 and the interpolated scale (two anchors per layer and cell), 2254 anchors.
        detector = try KeypointDetectionModel(
            name: "pose_detection.tflite", size: 224,
            anchors: SSDAnchors(inputWidth: 224, inputHeight: 224, strides: [8, 16, 32, 32, 32], interpolatedScaleAspectRatio: 1),
            keypointCount: 4, minimumScore: configuration.minimumDetectionConfidence, options: options, store: store)
        landmarkModel = try PoseLandmarkModel(options: options, store: store)
    }

    /// The bodies in `image` on its own: detection, then landmarks in each detection's crop.
    func analyze(_ image: VisionImage) throws -> [PoseAnalysis] {
        if image.orientation.isMirrored {
            return try analyze(image.mirrored()).map { $0.mirrored(inWidth: Double(image.width)) }
        }
        return try detections(in: image).compactMap { try landmarks(in: image, region: Self.region(for: $0)) }
    }

    /// Detections suppressed as `pose_detection_cpu.pbtxt` does (weighted, IoU 0.3), the best first.
    func detections(in image: VisionImage) throws -> [Detection] {
        NonMaxSuppression.weighted(try detector.detectAsMediaPipe(in: image), threshold: 0.3, limit: configuration.maximumPoses)
    }

    /// The pose in `region`, if the landmark model finds one there.
    func landmarks(in image: VisionImage, region: RotatedRect) throws -> PoseAnalysis? {
        guard
            let found = try landmarkModel.landmarks(
                in: image, region: region, minimumPresence: configuration.minimumPresence, segmentation: configuration.segmentation)
        else { return nil }
        return PoseAnalysis(
            score: found.presence, landmarks: found.landmarks, worldLandmarks: found.world, segmentationMask: found.mask,
            auxiliary: found.auxiliary)
    }

    /// The crop for a detection (`pose_detection_to_roi.pbtxt`): key point 0 is the hips centre, key point 1
    /// fixes the body's size and direction.
    static func region(for detection: Detection) -> RotatedRect {
        region(center: detection.keypoints[0], scalePoint: detection.keypoints[1])
    }

    /// The aligned square scaled by 1.25 (`RectTransformationCalculator`, `square_long`).
    static func region(center: CGPoint, scalePoint: CGPoint) -> RotatedRect {
        RotatedRect(aligningCenter: center, scalePoint: scalePoint).scaled(by: 1.25)
    }
}
