import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// One body found by the pose engine, in pixels of the upright image.
struct PoseAnalysis: LandmarkFinding {
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
/// body's size and direction; a turned square crop around them goes to the landmark model, and the two
/// auxiliary landmarks place the next frame's crop. In a stream the detector runs only while fewer poses
/// are tracked than asked for (with one pose: on the first frame and whenever the pose is lost).
final class PoseEngine: LandmarkEngine {
    let configuration: LandmarkConfiguration
    /// Whether each pose comes with its segmentation mask.
    let segmentation: Bool
    private let detector: KeypointDetectionModel
    private let landmarkModel: PoseLandmarkModel

    init(configuration: LandmarkConfiguration, segmentation: Bool, store: ModelStore) throws {
        self.configuration = configuration
        self.segmentation = segmentation
        // pose_detection_cpu.pbtxt: 224×224 letterboxed in −1…1; five anchor layers of strides 8, 16, 32, 32, 32
        // with aspect ratio 1 and the interpolated scale (two anchors per layer and cell), 2254 anchors.
        detector = try KeypointDetectionModel(
            name: "pose_detection.tflite", size: 224, strides: [8, 16, 32, 32, 32], keypointCount: 4, configuration: configuration,
            store: store)
        landmarkModel = try PoseLandmarkModel(options: configuration.compilation, store: store)
    }

    var maximumCount: Int { configuration.maximumCount }
    var tracking: LandmarkTracking { .fillingGaps(interval: 1) }

    /// Detections suppressed as `pose_detection_cpu.pbtxt` does (weighted, IoU 0.3), the best first.
    func detections(in image: VisionImage) throws -> [Detection] {
        NonMaxSuppression.weighted(try detector.detectAsMediaPipe(in: image), threshold: 0.3, limit: configuration.maximumCount)
    }

    /// The pose in `region`, if the landmark model finds one there.
    func landmarks(in image: VisionImage, region: RotatedRect) throws -> PoseAnalysis? {
        guard
            let found = try landmarkModel.landmarks(
                in: image, region: region, minimumPresence: configuration.minimumPresence, segmentation: segmentation)
        else { return nil }
        return PoseAnalysis(
            score: found.presence, landmarks: found.landmarks, worldLandmarks: found.world, segmentationMask: found.mask,
            auxiliary: found.auxiliary)
    }

    /// A detection is a body found already when a pose's box holds its hips centre.
    func anchor(of detection: Detection) -> CGPoint { detection.keypoints[0] }

    /// The crop for the next frame, placed as MediaPipe does by the two auxiliary landmarks passed through
    /// a One Euro filter (`pose_landmark_filtering.pbtxt`: minimum cutoff 0.01, beta 10, derivative cutoff 1,
    /// speeds relative to the body's size), which keeps the crop steady; frames are taken as 30 per second,
    /// as MediaPipe Python's solutions time them. The reported landmarks are not smoothed (MediaPipe's
    /// `smooth_landmarks` off); a lost pose forgets its filters.
    func nextRegion(following pose: PoseAnalysis, filters: inout [OneEuroFilter]) -> RotatedRect {
        if filters.isEmpty {
            // x and y filters of the two auxiliary landmarks.
            filters = Array(repeating: OneEuroFilter(minimumCutoff: 0.01, beta: 10, derivativeCutoff: 1), count: 4)
        }
        let (center, scalePoint) = (pose.auxiliary[0], pose.auxiliary[1])
        // LandmarksSmoothingCalculator's object scale: the size of the square the raw points align.
        let scale = 1 / max(RotatedRect(aligningCenter: center, scalePoint: scalePoint).size.width, 1e-6)
        let raw = [center.x, center.y, scalePoint.x, scalePoint.y]
        let smoothed = raw.indices.map { filters[$0].filter(raw[$0], scale: scale) }
        return Self.region(center: CGPoint(x: smoothed[0], y: smoothed[1]), scalePoint: CGPoint(x: smoothed[2], y: smoothed[3]))
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
