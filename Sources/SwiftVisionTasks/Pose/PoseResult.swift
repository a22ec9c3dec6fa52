import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// One body: the container the pose task reports and the API styles present. Its JSON has the score to
/// three decimals and the mask, when there is one, as a ``SegmentationMask`` object.
public struct PoseResult: Codable, Sendable {
    /// The landmark model's confidence that the crop holds a body (its pose flag), 0–1.
    @ThreeDecimals public var score: Float
    /// The box around the 33 landmarks, in upright pixels.
    public var boundingBox: PixelRect
    /// The 33 landmarks in MediaPipe's order (``PoseLandmarkType``): pixels of the upright image, `z`
    /// depth on the scale of `x` relative to the hips (smaller is nearer), `visibility` and `presence` 0–1.
    public var landmarks: [Landmark]
    /// The 33 landmarks in metres, origin between the hips (`x` right, `y` down, `z` away from the camera).
    public var worldLandmarks: [Landmark]
    /// The body's segmentation over the whole image, when asked for (``PoseTask/Options/segmentation``).
    public var segmentationMask: ConfidenceMask?

    init(_ pose: PoseAnalysis) {
        score = pose.score
        boundingBox = PixelRect(pose.boundingBox)
        landmarks = pose.landmarks
        worldLandmarks = pose.worldLandmarks
        segmentationMask = pose.segmentationMask
    }

    /// The landmark of `type`.
    public func landmark(_ type: PoseLandmarkType) -> Landmark { landmarks[type.index] }
}
