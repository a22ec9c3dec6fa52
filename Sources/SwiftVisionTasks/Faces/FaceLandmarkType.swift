import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// A named point of a face (ML Kit's `FaceLandmarkType`); left and right are the subject's.
public enum FaceLandmarkType: String, Sendable, CaseIterable, Codable {
    /// ML Kit's ten landmarks: the eyes (at the pupils), ears, cheeks, the base of the nose, and the
    /// mouth's left and right corners and bottom.
    case leftEye, rightEye, leftEar, rightEar, leftCheek, rightCheek, noseBase, mouthLeft, mouthRight, mouthBottom
}

/// A traced outline of a face feature (ML Kit's `FaceContourType`); left and right are the subject's.
public enum FaceContourType: String, Sendable, CaseIterable, Codable {
    /// The outline of the face, the top and bottom edges of each eyebrow, and the outline of each eye.
    case face, leftEyebrowTop, leftEyebrowBottom, rightEyebrowTop, rightEyebrowBottom, leftEye, rightEye
    /// The top and bottom edges of each lip, the bridge and bottom of the nose, and the centre of each cheek.
    case upperLipTop, upperLipBottom, lowerLipTop, lowerLipBottom, noseBridge, noseBottom, leftCheek, rightCheek

    /// The mesh points the contour runs through, in order.
    var meshIndices: [Int] {
        switch self {
        case .face: FaceMeshTopology.faceOval
        case .leftEyebrowTop: FaceMeshTopology.leftEyebrowTop
        case .leftEyebrowBottom: FaceMeshTopology.leftEyebrowBottom
        case .rightEyebrowTop: FaceMeshTopology.rightEyebrowTop
        case .rightEyebrowBottom: FaceMeshTopology.rightEyebrowBottom
        case .leftEye: FaceMeshTopology.leftEye
        case .rightEye: FaceMeshTopology.rightEye
        case .upperLipTop: FaceMeshTopology.upperLipTop
        case .upperLipBottom: FaceMeshTopology.upperLipBottom
        case .lowerLipTop: FaceMeshTopology.lowerLipTop
        case .lowerLipBottom: FaceMeshTopology.lowerLipBottom
        case .noseBridge: FaceMeshTopology.noseBridge
        case .noseBottom: FaceMeshTopology.noseBottom
        case .leftCheek: [FaceMeshTopology.leftCheek]
        case .rightCheek: [FaceMeshTopology.rightCheek]
        }
    }
}
