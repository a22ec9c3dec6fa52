import Foundation
import MLKitVision
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// A face found by ``FaceDetector``, as ML Kit's `Face`; coordinates in pixels of the upright image.
public struct Face: Sendable, Equatable {
    /// The face's box.
    public let frame: CGRect
    /// Detection confidence (in tracking, the face mesh's confidence), 0–1.
    public let confidence: Float
    /// Identifies the face across the frames of a stream, as ML Kit's `trackingID` (an `NSInteger`); read it
    /// when ``hasTrackingID`` is true, with tracking enabled (0 otherwise).
    public let trackingID: Int
    /// Whether the face has a ``trackingID``: in a stream, with ``FaceDetectorOptions/isTrackingEnabled``.
    public let hasTrackingID: Bool
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

    /// The landmark of `type`, if landmarks were asked for.
    public func landmark(ofType type: FaceLandmarkType) -> FaceLandmark? {
        landmarks.first { $0.type == type }
    }

    /// The contour of `type`, if contours were asked for.
    public func contour(ofType type: FaceContourType) -> FaceContour? {
        contours.first { $0.type == type }
    }

    /// False: the head's nod (Euler angle X) is not estimated.
    public var hasHeadEulerAngleX: Bool { false }
    /// True: every face has its turn, ``headEulerAngleY``.
    public var hasHeadEulerAngleY: Bool { true }
    /// True: every face has its tilt, ``headEulerAngleZ``.
    public var hasHeadEulerAngleZ: Bool { true }
    /// False: smiles are not classified.
    public var hasSmilingProbability: Bool { false }
    /// False: open eyes are not classified.
    public var hasLeftEyeOpenProbability: Bool { false }
    /// False: open eyes are not classified.
    public var hasRightEyeOpenProbability: Bool { false }
    /// The head's nod, as ML Kit's `headEulerAngleX`: not estimated, so 0 (``hasHeadEulerAngleX`` is false).
    public var headEulerAngleX: CGFloat { 0 }
    /// The probability of a smile, as ML Kit's `smilingProbability`: not classified, so 0
    /// (``hasSmilingProbability`` is false).
    public var smilingProbability: CGFloat { 0 }
    /// The probability that the left eye is open: not classified, so 0 (``hasLeftEyeOpenProbability`` is false).
    public var leftEyeOpenProbability: CGFloat { 0 }
    /// The probability that the right eye is open: not classified, so 0 (``hasRightEyeOpenProbability`` is false).
    public var rightEyeOpenProbability: CGFloat { 0 }

    init(_ face: FaceResult) {
        frame = face.boundingBox.rect
        confidence = face.confidence
        trackingID = face.trackingID ?? 0
        hasTrackingID = face.trackingID != nil
        headEulerAngleY = face.yaw
        headEulerAngleZ = face.roll
        landmarks = FaceLandmarkType.allCases.compactMap { type in
            face.position(of: type).map { FaceLandmark(type: type, position: VisionPoint($0)) }
        }
        contours = FaceContourType.allCases.compactMap { type in
            face.contours?[type.rawValue].map { FaceContour(type: type, points: $0.map { VisionPoint($0.point) }) }
        }
        meshPoints = face.mesh ?? []
    }
}

/// One landmark and its position in pixels.
public struct FaceLandmark: Sendable, Equatable {
    /// Which landmark.
    public let type: FaceLandmarkType
    /// Where it is, in upright pixels.
    public let position: VisionPoint
}

/// One contour and its points in pixels.
public struct FaceContour: Sendable, Equatable {
    /// Which contour.
    public let type: FaceContourType
    /// Its points in order, in upright pixels.
    public let points: [VisionPoint]
}
