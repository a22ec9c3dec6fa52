import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// A face found by a Vision-style request; the box is in Vision's normalised coordinates (lower-left origin).
public struct FaceObservation: VisionObservation, Equatable {
    /// Identifies the observation (Vision's `uuid`): new for each observation made, kept by its copies.
    public let uuid: UUID
    /// The face's box in 0…1 of the image, origin at the lower left.
    public let boundingBox: CGRect
    /// Detection confidence (in tracking, the face mesh's confidence), 0–1.
    public let confidence: Float
    /// Tilt of the head in radians, clockwise in the image.
    public let roll: Double
    /// Turn of the head in radians: positive when the nose points towards the image's right.
    public let yaw: Double
    /// Landmark regions, from ``DetectFaceLandmarksRequest``.
    public let landmarks: FaceLandmarks2D?
    /// The 468 face mesh points in pixels, from ``DetectFaceLandmarksRequest``.
    public let meshPoints: [FaceMeshPoint]
    /// Identifies the face across frames of a ``SequenceRequestHandler``; nil for single images.
    public let trackingID: Int?
    /// The upright size of the analysed image.
    public let imageSize: CGSize

    /// The face's box in pixels of the upright image, origin at the top left.
    public var imageBoundingBox: CGRect {
        boundingBox.converted(from: .normalizedLowerLeft, to: .pixels, imageSize: imageSize)
    }

    init(_ face: FaceResult, imageSize: CGSize) {
        uuid = UUID()
        boundingBox = face.boundingBox.rect.converted(from: .pixels, to: .normalizedLowerLeft, imageSize: imageSize)
        confidence = face.confidence
        roll = face.roll * .pi / 180
        yaw = face.yaw * .pi / 180
        landmarks = face.mesh.map { FaceLandmarks2D(mesh: $0, face: face) }
        meshPoints = face.mesh ?? []
        trackingID = face.trackingID
        self.imageSize = imageSize
    }
}

/// The landmark regions of a face, as Vision's `FaceLandmarks2D`; left and right are the subject's.
public struct FaceLandmarks2D: Sendable, Equatable {
    /// The outline of the face (MediaPipe's face oval).
    public let faceContour: FaceLandmarkRegion2D
    /// The outline of the left eye.
    public let leftEye: FaceLandmarkRegion2D
    /// The outline of the right eye.
    public let rightEye: FaceLandmarkRegion2D
    /// The outline of the left eyebrow: along its top edge, then back along its bottom edge.
    public let leftEyebrow: FaceLandmarkRegion2D
    /// The outline of the right eyebrow: along its top edge, then back along its bottom edge.
    public let rightEyebrow: FaceLandmarkRegion2D
    /// The outline of the lower nose, around the nostrils and the tip.
    public let nose: FaceLandmarkRegion2D
    /// The ridge of the nose, from between the eyes to the tip.
    public let noseCrest: FaceLandmarkRegion2D
    /// The line down the middle of the face, from the forehead to the chin.
    public let medianLine: FaceLandmarkRegion2D
    /// The outer outline of the lips.
    public let outerLips: FaceLandmarkRegion2D
    /// The inner outline of the lips, around the opening of the mouth.
    public let innerLips: FaceLandmarkRegion2D
    /// The centre of the left pupil, as one point.
    public let leftPupil: FaceLandmarkRegion2D
    /// The centre of the right pupil, as one point.
    public let rightPupil: FaceLandmarkRegion2D

    /// Every point of every region.
    public var allPoints: FaceLandmarkRegion2D {
        let regions = [faceContour, leftEye, rightEye, leftEyebrow, rightEyebrow, nose, noseCrest, medianLine, outerLips, innerLips, leftPupil, rightPupil]
        return FaceLandmarkRegion2D(normalizedPoints: regions.flatMap(\.normalizedPoints), faceBox: faceContour.faceBox)
    }

    init(mesh: [FaceMeshPoint], face: FaceResult) {
        let box = face.boundingBox.rect
        func region(_ indices: [Int]) -> FaceLandmarkRegion2D {
            FaceLandmarkRegion2D(points: indices.map { mesh[$0].point }, faceBox: box)
        }
        faceContour = region(FaceMeshTopology.faceOval)
        leftEye = region(FaceMeshTopology.leftEye)
        rightEye = region(FaceMeshTopology.rightEye)
        leftEyebrow = region(FaceMeshTopology.leftEyebrowTop + FaceMeshTopology.leftEyebrowBottom.reversed())
        rightEyebrow = region(FaceMeshTopology.rightEyebrowTop + FaceMeshTopology.rightEyebrowBottom.reversed())
        nose = region(FaceMeshTopology.noseOutline)
        noseCrest = region(FaceMeshTopology.noseCrest)
        medianLine = region(FaceMeshTopology.medianLine)
        outerLips = region(FaceMeshTopology.outerLips)
        innerLips = region(FaceMeshTopology.innerLips)
        leftPupil = FaceLandmarkRegion2D(points: face.position(of: .leftEye).map { [$0] } ?? [], faceBox: box)
        rightPupil = FaceLandmarkRegion2D(points: face.position(of: .rightEye).map { [$0] } ?? [], faceBox: box)
    }
}

/// The points of one facial feature, as Vision's `FaceLandmarkRegion2D`.
public struct FaceLandmarkRegion2D: Sendable, Equatable {
    /// Points in 0…1 of the face's bounding box, origin at its lower left (Vision's convention).
    public let normalizedPoints: [CGPoint]
    /// The face box in pixels (top-left origin) the points are relative to.
    let faceBox: CGRect

    /// The number of points.
    public var pointCount: Int { normalizedPoints.count }

    init(normalizedPoints: [CGPoint], faceBox: CGRect) {
        self.normalizedPoints = normalizedPoints
        self.faceBox = faceBox
    }

    init(points: [CGPoint], faceBox: CGRect) {
        self.init(
            normalizedPoints: points.map {
                CGPoint(x: ($0.x - faceBox.minX) / faceBox.width, y: 1 - ($0.y - faceBox.minY) / faceBox.height)
            }, faceBox: faceBox)
    }

    /// The points in image coordinates as Vision's `pointsInImage(imageSize:)` gives them: pixels of an
    /// upright image of `imageSize`, origin at the lower left.
    public func pointsInImage(imageSize: CGSize) -> [CGPoint] {
        normalizedPoints.map {
            CGPoint(x: faceBox.minX + $0.x * faceBox.width, y: imageSize.height - faceBox.minY - (1 - $0.y) * faceBox.height)
        }
    }
}
