import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// One face: the container the faces task reports and the API styles present. Its JSON has the confidence
/// to three decimals and the angles to one.
public struct FaceResult: Codable, Sendable, Equatable {
    /// The face's box in upright pixels.
    public var boundingBox: PixelRect
    /// Detection confidence (in tracking, the face mesh's confidence), 0–1.
    @ThreeDecimals public var confidence: Float
    /// Identifies the face across the frames of a stream; nil for single images.
    public var trackingID: Int?
    /// Tilt of the head in degrees, clockwise in the image.
    @OneDecimal public var roll: Double
    /// Turn of the head in degrees: positive when the nose points towards the image's right.
    @OneDecimal public var yaw: Double
    /// Landmarks by ``FaceLandmarkType`` name, when asked for.
    public var landmarks: [String: PixelPoint]?
    /// Contours by ``FaceContourType`` name, when asked for.
    public var contours: [String: [PixelPoint]]?
    /// The 468 face mesh points, when asked for.
    public var mesh: [Landmark]?

    init(_ face: FaceAnalysis, options: FacesTask.Options) {
        boundingBox = PixelRect(face.boundingBox)
        confidence = face.confidence
        trackingID = face.trackingID
        roll = face.roll
        yaw = face.yaw
        landmarks = options.landmarks ? Dictionary(uniqueKeysWithValues: face.landmarkPositions().map { ($0.rawValue, PixelPoint($1)) }) : nil
        contours = options.tracesContours ? face.mesh.map { mesh in
            Dictionary(uniqueKeysWithValues: FaceContourType.allCases.map { type in
                (type.rawValue, type.meshIndices.map { PixelPoint(mesh[$0].point) })
            })
        } : nil
        mesh = options.mesh ? face.mesh : nil
    }

    /// The position of the landmark `type`, when landmarks were asked for.
    public func position(of type: FaceLandmarkType) -> CGPoint? {
        landmarks?[type.rawValue]?.point
    }
}

extension FaceAnalysis {
    /// The landmarks: from the mesh (eyes at the pupils) when there is one, else the detector's key points.
    func landmarkPositions() -> [(FaceLandmarkType, CGPoint)] {
        guard let mesh else {
            return [
                (.rightEye, keypoints[0]), (.leftEye, keypoints[1]), (.noseBase, keypoints[2]), (.mouthBottom, keypoints[3]),
                (.rightEar, keypoints[4]), (.leftEar, keypoints[5]),
            ]
        }
        let fromMesh: [(FaceLandmarkType, Int)] = [
            (.leftEar, FaceMeshTopology.leftEar), (.rightEar, FaceMeshTopology.rightEar),
            (.leftCheek, FaceMeshTopology.leftCheek), (.rightCheek, FaceMeshTopology.rightCheek),
            (.noseBase, FaceMeshTopology.noseBase), (.mouthLeft, FaceMeshTopology.mouthLeft),
            (.mouthRight, FaceMeshTopology.mouthRight), (.mouthBottom, FaceMeshTopology.mouthBottom),
        ]
        return [(.leftEye, leftIris?.first ?? keypoints[1]), (.rightEye, rightIris?.first ?? keypoints[0])]
            + fromMesh.map { ($0.0, mesh[$0.1].point) }
    }
}
