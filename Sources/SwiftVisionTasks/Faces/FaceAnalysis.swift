import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Everything the face engine found about one face, in pixels of the upright image; the public
/// ``Face`` and ``FaceObservation`` are views of it.
struct FaceAnalysis: LandmarkFinding, Equatable {
    var boundingBox: CGRect
    var confidence: Float
    /// The detector's key points: subject's right eye, left eye, nose tip, mouth centre, right ear, left ear.
    var keypoints: [CGPoint]
    /// Clockwise tilt of the eye line, degrees.
    var roll: Double
    /// Turn of the head, degrees: positive when the nose points towards the image's right.
    var yaw: Double
    var mesh: [FaceMeshPoint]?
    /// Iris points of the subject's left and right eye, centre first.
    var leftIris: [CGPoint]?
    var rightIris: [CGPoint]?
    var trackingID: Int?

    /// The same face seen in a mirror of an image `width` wide: coordinates flip, the subject's sides stay.
    func mirrored(inWidth width: Double) -> FaceAnalysis {
        func flip(_ point: CGPoint) -> CGPoint { point.mirroredHorizontally(inWidth: width) }
        var face = self
        face.boundingBox = boundingBox.mirroredHorizontally(inWidth: width)
        face.keypoints = keypoints.map(flip)
        face.roll = -roll
        face.yaw = -yaw
        face.mesh = mesh?.map { FaceMeshPoint(x: width - $0.x, y: $0.y, z: $0.z) }
        face.leftIris = leftIris?.map(flip)
        face.rightIris = rightIris?.map(flip)
        return face
    }
}
