import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// An object's box in one frame, as Vision's `DetectedObjectObservation`: the seed of a
/// ``TrackObjectRequest`` and its result.
public struct DetectedObjectObservation: VisionObservation, Equatable {
    /// Identifies the observation (Vision's `uuid`): new for each seed, and, as in Vision, kept by the
    /// results of tracking it, so it stays the same along a track; a new observation starts a new track.
    public let uuid: UUID
    /// The box in 0…1 of the image, origin at the lower left (Vision's convention).
    public let boundingBox: CGRect
    /// 0–1; 0 while the object is lost.
    public let confidence: Float
    /// Whether the tracker has lost the object in this frame (hidden, out of the frame or changed beyond
    /// recognition); it turns false again when the object is found again.
    public let isLost: Bool

    /// A seed from a box in Vision's normalised lower-left coordinates.
    public init(boundingBox: CGRect) {
        self.init(uuid: UUID(), boundingBox: boundingBox, confidence: 1, isLost: false)
    }

    /// A seed from a box in pixels of an upright image of `imageSize`.
    public init(imageRect: CGRect, imageSize: CGSize) {
        self.init(boundingBox: imageRect.converted(from: .pixels, to: .normalizedLowerLeft, imageSize: imageSize))
    }

    /// The rectangle's box, under the rectangle's ``RectangleObservation/uuid`` and confidence: in Vision a
    /// rectangle observation is a detected-object observation, and tracking it keeps its identity.
    public init(_ rectangle: RectangleObservation) {
        self.init(uuid: rectangle.uuid, boundingBox: rectangle.boundingBox, confidence: rectangle.confidence, isLost: false)
    }

    init(uuid: UUID, boundingBox: CGRect, confidence: Float, isLost: Bool) {
        self.uuid = uuid
        self.boundingBox = boundingBox
        self.confidence = confidence
        self.isLost = isLost
    }

    /// The box in pixels of an upright image of `imageSize`, origin at the top left.
    public func imageRect(imageSize: CGSize) -> CGRect {
        boundingBox.converted(from: .normalizedLowerLeft, to: .pixels, imageSize: imageSize)
    }
}
