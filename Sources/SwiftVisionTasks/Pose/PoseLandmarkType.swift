import Foundation

/// One of BlazePose's 33 body landmarks, in MediaPipe's order (the case's index is the landmark's index),
/// named as ML Kit's `PoseLandmarkType`; left and right are the subject's.
public enum PoseLandmarkType: String, Sendable, CaseIterable, Codable {
    /// The face: nose, the inner corner, centre and outer corner of each eye, the ears and the mouth's corners.
    case nose, leftEyeInner, leftEye, leftEyeOuter, rightEyeInner, rightEye, rightEyeOuter, leftEar, rightEar
    /// The mouth's corners.
    case mouthLeft, mouthRight
    /// The arms.
    case leftShoulder, rightShoulder, leftElbow, rightElbow, leftWrist, rightWrist
    /// The hands: the knuckles of the little and index fingers, and the thumbs.
    case leftPinkyFinger, rightPinkyFinger, leftIndexFinger, rightIndexFinger, leftThumb, rightThumb
    /// The legs.
    case leftHip, rightHip, leftKnee, rightKnee, leftAnkle, rightAnkle, leftHeel, rightHeel, leftToe, rightToe

    /// The landmark's index in MediaPipe's list of 33.
    public var index: Int { Self.allCases.firstIndex(of: self)! }

    /// The skeleton's bones as pairs of landmark indices (MediaPipe's `POSE_CONNECTIONS`).
    public static let connections: [(Int, Int)] = [
        (0, 1), (1, 2), (2, 3), (3, 7), (0, 4), (4, 5), (5, 6), (6, 8), (9, 10), (11, 12), (11, 13), (13, 15), (15, 17),
        (15, 19), (15, 21), (17, 19), (12, 14), (14, 16), (16, 18), (16, 20), (16, 22), (18, 20), (11, 23), (12, 24),
        (23, 24), (23, 25), (24, 26), (25, 27), (26, 28), (27, 29), (28, 30), (29, 31), (30, 32), (27, 31), (28, 32),
    ]
}
