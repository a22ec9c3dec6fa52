import Foundation

/// A face found by ``FaceDetector``, as ML Kit's `Face`; coordinates in pixels of the upright image.
public struct Face: Sendable, Equatable {
    /// The face's box.
    public let frame: CGRect
    /// Detection confidence (in tracking, the face mesh's confidence), 0–1.
    public let confidence: Float
    /// Identifies the face across frames of a stream; nil for single images.
    public let trackingID: Int?
    /// Turn of the head in degrees: positive when the nose points towards the image's right.
    public let headEulerAngleY: CGFloat
    /// Tilt of the head in degrees, clockwise in the image.
    public let headEulerAngleZ: CGFloat
    /// Landmarks, with ``FaceDetectorOptions/landmarkMode`` `.all`.
    public let landmarks: [FaceLandmark]
    /// Contours, with ``FaceDetectorOptions/contourMode`` `.all`.
    public let contours: [FaceContour]
    /// The 468 points of MediaPipe's face mesh, when landmarks or contours were asked for.
    public let meshPoints: [FaceMeshPoint]

    public func landmark(ofType type: FaceLandmarkType) -> FaceLandmark? {
        landmarks.first { $0.type == type }
    }

    public func contour(ofType type: FaceContourType) -> FaceContour? {
        contours.first { $0.type == type }
    }

    init(_ analysis: FaceAnalysis, options: FaceDetectorOptions) {
        frame = analysis.boundingBox
        confidence = analysis.confidence
        trackingID = analysis.trackingID
        headEulerAngleY = analysis.yaw
        headEulerAngleZ = analysis.roll
        landmarks = options.landmarkMode == .all ? FaceLandmark.all(in: analysis) : []
        contours = options.contourMode == .all ? (analysis.mesh.map(FaceContour.all(in:)) ?? []) : []
        meshPoints = options.needsMesh ? analysis.mesh ?? [] : []
    }
}

/// A named point of a face (ML Kit's `FaceLandmarkType`); left and right are the subject's.
public enum FaceLandmarkType: String, Sendable, CaseIterable, Codable {
    case leftEye, rightEye, leftEar, rightEar, leftCheek, rightCheek, noseBase, mouthLeft, mouthRight, mouthBottom
}

/// One landmark and its position in pixels.
public struct FaceLandmark: Sendable, Equatable {
    public let type: FaceLandmarkType
    public let position: CGPoint

    /// From the mesh (eyes at the pupils) when there is one, else from the detector's key points.
    static func all(in face: FaceAnalysis) -> [FaceLandmark] {
        if let mesh = face.mesh {
            let index: [(FaceLandmarkType, Int)] = [
                (.leftEar, FaceMeshTopology.leftEar), (.rightEar, FaceMeshTopology.rightEar),
                (.leftCheek, FaceMeshTopology.leftCheek), (.rightCheek, FaceMeshTopology.rightCheek),
                (.noseBase, FaceMeshTopology.noseBase), (.mouthLeft, FaceMeshTopology.mouthLeft),
                (.mouthRight, FaceMeshTopology.mouthRight), (.mouthBottom, FaceMeshTopology.mouthBottom),
            ]
            let eyes = [
                FaceLandmark(type: .leftEye, position: face.leftIris?.first ?? face.keypoints[1]),
                FaceLandmark(type: .rightEye, position: face.rightIris?.first ?? face.keypoints[0]),
            ]
            return eyes + index.map { FaceLandmark(type: $0.0, position: mesh[$0.1].point) }
        }
        let points = face.keypoints
        return [
            FaceLandmark(type: .rightEye, position: points[0]), FaceLandmark(type: .leftEye, position: points[1]),
            FaceLandmark(type: .noseBase, position: points[2]), FaceLandmark(type: .mouthBottom, position: points[3]),
            FaceLandmark(type: .rightEar, position: points[4]), FaceLandmark(type: .leftEar, position: points[5]),
        ]
    }
}

/// A traced outline of a face feature (ML Kit's `FaceContourType`); left and right are the subject's.
public enum FaceContourType: String, Sendable, CaseIterable, Codable {
    case face, leftEyebrowTop, leftEyebrowBottom, rightEyebrowTop, rightEyebrowBottom, leftEye, rightEye
    case upperLipTop, upperLipBottom, lowerLipTop, lowerLipBottom, noseBridge, noseBottom, leftCheek, rightCheek

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

/// One contour and its points in pixels.
public struct FaceContour: Sendable, Equatable {
    public let type: FaceContourType
    public let points: [CGPoint]

    static func all(in mesh: [FaceMeshPoint]) -> [FaceContour] {
        FaceContourType.allCases.map { type in FaceContour(type: type, points: type.meshIndices.map { mesh[$0].point }) }
    }
}
