import Foundation

/// One of the 21 hand landmarks, in MediaPipe's order (the case's index is the landmark's index), named
/// as MediaPipe's `HandLandmark`: the wrist, then the thumb and each finger from the palm to the tip.
public enum HandLandmarkType: String, Sendable, CaseIterable, Codable {
    /// The wrist.
    case wrist
    /// The thumb: carpometacarpal, metacarpophalangeal and interphalangeal joints, and the tip.
    case thumbCMC, thumbMCP, thumbIP, thumbTip
    /// The index finger: knuckle, middle and end joints, and the tip.
    case indexFingerMCP, indexFingerPIP, indexFingerDIP, indexFingerTip
    /// The middle finger.
    case middleFingerMCP, middleFingerPIP, middleFingerDIP, middleFingerTip
    /// The ring finger.
    case ringFingerMCP, ringFingerPIP, ringFingerDIP, ringFingerTip
    /// The little finger.
    case pinkyMCP, pinkyPIP, pinkyDIP, pinkyTip

    /// The landmark's index in MediaPipe's list of 21.
    public var index: Int { Self.allCases.firstIndex(of: self)! }

    /// The hand's bones as pairs of landmark indices (MediaPipe's `HAND_CONNECTIONS`).
    public static let connections: [(Int, Int)] = [
        (0, 1), (1, 2), (2, 3), (3, 4), (0, 5), (5, 6), (6, 7), (7, 8), (5, 9), (9, 10), (10, 11), (11, 12), (9, 13), (13, 14),
        (14, 15), (15, 16), (13, 17), (0, 17), (17, 18), (18, 19), (19, 20),
    ]
}

/// Which hand: MediaPipe's handedness labels. As in MediaPipe, the label is the one the model gives for
/// the image as it is, and the model takes images to be mirrored (a front camera's): in an unmirrored
/// photo a `left` hand is usually the subject's right hand.
public enum Handedness: String, Sendable, Codable, CaseIterable {
    /// MediaPipe's `Left`.
    case left = "Left"
    /// MediaPipe's `Right`.
    case right = "Right"
}
