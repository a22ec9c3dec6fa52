import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// One hand found by the hand engine, in pixels of the upright image.
struct HandAnalysis: LandmarkFinding {
    /// The hand flag of the landmark model, 0–1.
    var presence: Float
    /// The model's score that the hand is a left one, as MediaPipe labels it (see ``Handedness``).
    var leftScore: Float
    /// The 21 landmarks in ``HandLandmarkType`` order.
    var landmarks: [Landmark]
    /// The 21 world landmarks in metres, origin at the hand's centre.
    var worldLandmarks: [Landmark]

    /// The box around the 21 landmarks.
    var boundingBox: CGRect { landmarks.map(\.point).boundingBox }

    /// The same hand seen in a mirror of an image `width` wide: coordinates flip, and so does the hand's
    /// side, as a mirror shows a left hand as a right one.
    func mirrored(inWidth width: Double) -> HandAnalysis {
        var hand = self
        hand.leftScore = 1 - leftScore
        hand.landmarks = landmarks.map { with($0) { $0.x = width - $0.x } }
        hand.worldLandmarks = worldLandmarks.map { with($0) { $0.x = -$0.x } }
        return hand
    }
}

/// The hand engine of ``HandsTask``, as MediaPipe's hand landmark tracking graph
/// (`hand_landmark_tracking_cpu.pbtxt`): the palm detector finds palms and seven key points; a turned
/// square crop around each palm goes to the landmark model, and the landmarks place the next frame's crop.
final class HandEngine: LandmarkEngine {
    /// The two model files of one `model_complexity` of MediaPipe's hand tracking graph.
    struct Models: Sendable, Hashable {
        var palmDetector: String
        var landmarks: String

        /// The files of complexity 0 (lite) or 1 (full); nil for any other value.
        init?(complexity: Int) {
            guard let size = [0: "lite", 1: "full"][complexity] else { return nil }
            palmDetector = "palm_detection_\(size).tflite"
            landmarks = "hand_landmark_\(size).tflite"
        }
    }

    let configuration: LandmarkConfiguration
    private let detector: KeypointDetectionModel
    private let landmarkModel: HandLandmarkModel

    init(configuration: LandmarkConfiguration, models: Models, store: ModelStore) throws {
        self.configuration = configuration
        // palm_detection_cpu.pbtxt: 192×192 letterboxed in 0…1 with zero borders; four anchor layers of
        // strides 8, 16, 16, 16 with aspect ratio 1 and the interpolated scale, 2016 anchors; 7 key points.
        detector = try KeypointDetectionModel(
            name: models.palmDetector, size: 192, strides: [8, 16, 16, 16], keypointCount: 7, configuration: configuration,
            normalization: .unit, store: store)
        landmarkModel = try HandLandmarkModel(name: models.landmarks, options: configuration.compilation, store: store)
    }

    var maximumCount: Int { configuration.maximumCount }
    var tracking: LandmarkTracking { .associatingRegions }

    /// The best ``LandmarkConfiguration/maximumCount`` palms, suppressed as `palm_detection_cpu.pbtxt` does
    /// (weighted, IoU 0.3) and clipped as the tracking graph's `ClipDetectionVectorSizeCalculator`.
    func detections(in image: VisionImage) throws -> [Detection] {
        NonMaxSuppression.weighted(try detector.detectAsMediaPipe(in: image), threshold: 0.3, limit: configuration.maximumCount)
    }

    /// The hand in `region`, if the landmark model finds one there.
    func landmarks(in image: VisionImage, region: RotatedRect) throws -> HandAnalysis? {
        guard
            let found = try landmarkModel.landmarks(in: image, region: region, minimumPresence: configuration.minimumPresence)
        else { return nil }
        return HandAnalysis(presence: found.presence, leftScore: found.leftScore, landmarks: found.landmarks, worldLandmarks: found.world)
    }

    /// The crop that follows the hand into the next frame (`hand_landmark_landmarks_to_roi.pbtxt`).
    func nextRegion(following hand: HandAnalysis, filters: inout [OneEuroFilter]) -> RotatedRect {
        Self.region(following: hand.landmarks.map(\.point))
    }

    /// The crop for a palm (`palm_detection_detection_to_roi.pbtxt`): the palm's box turned so that the line
    /// from key point 0 (the wrist's centre) to key point 2 (the middle finger's knuckle) points up, moved
    /// half its height towards the fingers, squared on its longer side and scaled by 2.6.
    static func region(for palm: Detection) -> RotatedRect {
        let box = palm.boundingBox
        let rotation = RotatedRect.rotation(from: palm.keypoints[0], to: palm.keypoints[2]) + .pi / 2
        return transformed(
            RotatedRect(center: CGPoint(x: box.midX, y: box.midY), size: box.size, rotation: rotation), shiftY: -0.5, scale: 2.6)
    }

    /// MediaPipe's partial hand (`HandLandmarksToRectCalculator`): the wrist, the thumb's first three
    /// joints and the first two joints of each finger.
    private static let partialLandmarks = [0, 1, 2, 3, 5, 6, 9, 10, 13, 14, 17, 18]

    /// The crop following 21 hand landmarks (`hand_landmark_landmarks_to_roi.pbtxt`): the box of the
    /// partial hand turned so that the line from the wrist to the mean of the index, middle and ring
    /// knuckles points up, moved a tenth of its height towards the fingers, squared and scaled by 2.
    static func region(following landmarks: [CGPoint]) -> RotatedRect {
        let points = partialLandmarks.map { landmarks[$0] }
        let knuckles = CGPoint(
            x: ((points[4].x + points[8].x) / 2 + points[6].x) / 2, y: ((points[4].y + points[8].y) / 2 + points[6].y) / 2)
        let rotation = RotatedRect.rotation(from: points[0], to: knuckles) + .pi / 2
        let aligned = points.boundingBox
        let axisCenter = CGPoint(x: aligned.midX, y: aligned.midY)
        // The box of the points turned back by the rotation, about the centre of their upright box.
        let (sine, cosine) = (sin(-rotation), cos(-rotation))
        let turned = points.map { point in
            let (x, y) = (point.x - axisCenter.x, point.y - axisCenter.y)
            return CGPoint(x: x * cosine - y * sine, y: x * sine + y * cosine)
        }.boundingBox
        let (forwardSine, forwardCosine) = (sin(rotation), cos(rotation))
        let center = CGPoint(
            x: turned.midX * forwardCosine - turned.midY * forwardSine + axisCenter.x,
            y: turned.midX * forwardSine + turned.midY * forwardCosine + axisCenter.y)
        return transformed(RotatedRect(center: center, size: turned.size, rotation: rotation), shiftY: -0.1, scale: 2)
    }

    /// MediaPipe's `RectTransformationCalculator` with `square_long`: moved by `shiftY` of its height along
    /// its own vertical axis, squared on its longer side, scaled.
    private static func transformed(_ rect: RotatedRect, shiftY: Double, scale: Double) -> RotatedRect {
        let shift = shiftY * rect.size.height
        var moved = rect
        moved.center = CGPoint(x: rect.center.x - shift * sin(rect.rotation), y: rect.center.y + shift * cos(rect.rotation))
        return moved.scaled(by: scale)
    }
}
