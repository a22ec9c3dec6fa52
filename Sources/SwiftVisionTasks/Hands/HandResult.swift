import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// One hand: the container the hand task reports and the API styles present. Its JSON has the scores to
/// three decimals.
public struct HandResult: Codable, Sendable {
    /// Which hand, as MediaPipe labels it (see ``Handedness``).
    public var handedness: Handedness
    /// The landmark model's confidence in ``handedness``, 0.5–1.
    @ThreeDecimals public var handednessScore: Float
    /// The landmark model's confidence that the crop holds a hand (its hand flag), 0–1.
    @ThreeDecimals public var score: Float
    /// The box around the 21 landmarks, in upright pixels.
    public var boundingBox: PixelRect
    /// The 21 landmarks in MediaPipe's order (``HandLandmarkType``): pixels of the upright image, `z`
    /// depth on the scale of `x` relative to the wrist (smaller is nearer).
    public var landmarks: [Landmark]
    /// The 21 landmarks in metres, origin at the hand's centre (`x` right, `y` down, `z` away from the camera).
    public var worldLandmarks: [Landmark]

    init(_ hand: HandAnalysis) {
        // TensorsToClassificationCalculator with `binary_classification` and `top_k: 1`: `Left` scores the
        // model's value, `Right` one minus it; the higher wins.
        handedness = hand.leftScore >= 0.5 ? .left : .right
        handednessScore = max(hand.leftScore, 1 - hand.leftScore)
        score = hand.presence
        boundingBox = PixelRect(hand.boundingBox)
        landmarks = hand.landmarks
        worldLandmarks = hand.worldLandmarks
    }

    /// The landmark of `type`.
    public func landmark(_ type: HandLandmarkType) -> Landmark { landmarks[type.index] }
}
