import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// One detected object: a box, a score and named key points, in pixels of the upright image
/// (MediaPipe's `Detection` container).
public struct Detection: Sendable, Equatable {
    /// The box in upright pixels.
    public var boundingBox: CGRect
    /// The detector's confidence, 0–1.
    public var score: Float
    /// Key points in the order the model defines (for faces: right eye, left eye, nose tip, mouth, right ear, left ear).
    public var keypoints: [CGPoint]
    /// The class of a multi-class detector, as an index into its labels.
    public var labelIndex: Int?

    /// A detection with a box and score, and optionally key points and a class.
    public init(boundingBox: CGRect, score: Float, keypoints: [CGPoint] = [], labelIndex: Int? = nil) {
        self.boundingBox = boundingBox
        self.score = score
        self.keypoints = keypoints
        self.labelIndex = labelIndex
    }

    /// Intersection over union of two boxes.
    public func intersectionOverUnion(with other: Detection) -> Double {
        boundingBox.intersectionOverUnion(with: other.boundingBox)
    }
}

extension CGRect {
    /// Area of the intersection divided by area of the union; 0 when they do not overlap.
    public func intersectionOverUnion(with other: CGRect) -> Double {
        let overlap = intersection(other)
        guard !overlap.isNull, overlap.width > 0, overlap.height > 0 else { return 0 }
        let intersection = overlap.width * overlap.height
        return intersection / (width * height + other.width * other.height - intersection)
    }
}
