import Foundation
import SwiftVisionCore

/// How sure a request is of an observation, 0–1, as Vision's `VNConfidence`.
public typealias VNConfidence = Float
/// The points of one facial feature, as Vision's `VNFaceLandmarkRegion2D`.
public typealias VNFaceLandmarkRegion2D = FaceLandmarkRegion2D

/// What every observation of a `VN…` request has, as Vision's `VNObservation`.
open class VNObservation: @unchecked Sendable {
    /// Identifies the observation; the results of tracking an observation keep its `uuid`.
    public let uuid: UUID
    /// How sure the request is, 0–1.
    public let confidence: VNConfidence

    init(uuid: UUID, confidence: VNConfidence) {
        self.uuid = uuid
        self.confidence = confidence
    }
}

/// An object's box, as Vision's `VNDetectedObjectObservation`: the seed and the result of tracking.
open class VNDetectedObjectObservation: VNObservation, @unchecked Sendable {
    /// The box in 0–1 of the image, origin at the lower left.
    public let boundingBox: CGRect

    /// A seed for a tracker: `boundingBox` in 0–1 of the image, origin at the lower left, as Vision's
    /// `VNDetectedObjectObservation(boundingBox:)`.
    public convenience init(boundingBox: CGRect) {
        self.init(uuid: UUID(), confidence: 1, boundingBox: boundingBox)
    }

    init(uuid: UUID, confidence: VNConfidence, boundingBox: CGRect) {
        self.boundingBox = boundingBox
        super.init(uuid: uuid, confidence: confidence)
    }

    /// The observation as the Swift-style tracker takes it.
    var seed: DetectedObjectObservation {
        DetectedObjectObservation(uuid: uuid, boundingBox: boundingBox, confidence: confidence, isLost: false)
    }
}

/// A rectangle's corners, as Vision's `VNRectangleObservation`: in 0–1 of the image, origin at the lower left.
open class VNRectangleObservation: VNDetectedObjectObservation, @unchecked Sendable {
    /// The top-left corner.
    public let topLeft: CGPoint
    /// The top-right corner.
    public let topRight: CGPoint
    /// The bottom-right corner.
    public let bottomRight: CGPoint
    /// The bottom-left corner.
    public let bottomLeft: CGPoint

    init(uuid: UUID, confidence: VNConfidence, corners: Quadrilateral) {
        topLeft = corners.topLeft
        topRight = corners.topRight
        bottomRight = corners.bottomRight
        bottomLeft = corners.bottomLeft
        super.init(uuid: uuid, confidence: confidence, boundingBox: corners.boundingBox)
    }

    /// The rectangle ``DetectRectanglesRequest`` found, under its `uuid`.
    convenience init(_ rectangle: RectangleObservation) {
        self.init(uuid: rectangle.uuid, confidence: rectangle.confidence, corners: rectangle.normalizedCorners)
    }
}

/// A face, as Vision's `VNFaceObservation`: its box and, from ``VNDetectFaceLandmarksRequest``, its landmarks.
open class VNFaceObservation: VNDetectedObjectObservation, @unchecked Sendable {
    /// The landmark regions; nil from ``VNDetectFaceRectanglesRequest``.
    public let landmarks: VNFaceLandmarks2D?
    /// Tilt of the head in radians, as Vision's `roll`.
    public let roll: NSNumber?
    /// Turn of the head in radians, as Vision's `yaw`.
    public let yaw: NSNumber?
    /// Nod of the head in radians, as Vision's `pitch` (iOS 15): always nil, as Vision leaves it where it
    /// was not estimated; SwiftVision does not estimate the nod (ML Kit's `headEulerAngleX` is missing too).
    public let pitch: NSNumber? = nil

    init(_ face: FaceObservation) {
        landmarks = face.landmarks.map(VNFaceLandmarks2D.init)
        roll = NSNumber(value: face.roll)
        yaw = NSNumber(value: face.yaw)
        super.init(uuid: face.uuid, confidence: face.confidence, boundingBox: face.boundingBox)
    }
}
