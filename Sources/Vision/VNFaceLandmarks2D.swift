import Foundation

/// A face's landmark regions, as Vision's `VNFaceLandmarks2D`. Each region is optional there, so ported
/// code reads them with `if let leftEye = landmarks.leftEye`; here every region of a face whose landmarks
/// were found is present. Left and right are the subject's.
public final class VNFaceLandmarks2D: Sendable {
    /// Every point of every region.
    public let allPoints: VNFaceLandmarkRegion2D?
    /// The outline of the face.
    public let faceContour: VNFaceLandmarkRegion2D?
    /// The outline of the left eye.
    public let leftEye: VNFaceLandmarkRegion2D?
    /// The outline of the right eye.
    public let rightEye: VNFaceLandmarkRegion2D?
    /// The outline of the left eyebrow.
    public let leftEyebrow: VNFaceLandmarkRegion2D?
    /// The outline of the right eyebrow.
    public let rightEyebrow: VNFaceLandmarkRegion2D?
    /// The outline of the lower nose.
    public let nose: VNFaceLandmarkRegion2D?
    /// The ridge of the nose.
    public let noseCrest: VNFaceLandmarkRegion2D?
    /// The line down the middle of the face.
    public let medianLine: VNFaceLandmarkRegion2D?
    /// The outer outline of the lips.
    public let outerLips: VNFaceLandmarkRegion2D?
    /// The inner outline of the lips.
    public let innerLips: VNFaceLandmarkRegion2D?
    /// The centre of the left pupil, as one point.
    public let leftPupil: VNFaceLandmarkRegion2D?
    /// The centre of the right pupil, as one point.
    public let rightPupil: VNFaceLandmarkRegion2D?

    init(_ landmarks: FaceLandmarks2D) {
        allPoints = landmarks.allPoints
        faceContour = landmarks.faceContour
        leftEye = landmarks.leftEye
        rightEye = landmarks.rightEye
        leftEyebrow = landmarks.leftEyebrow
        rightEyebrow = landmarks.rightEyebrow
        nose = landmarks.nose
        noseCrest = landmarks.noseCrest
        medianLine = landmarks.medianLine
        outerLips = landmarks.outerLips
        innerLips = landmarks.innerLips
        leftPupil = landmarks.leftPupil
        rightPupil = landmarks.rightPupil
    }
}
