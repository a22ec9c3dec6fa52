import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// A rectangle found by ``DetectRectanglesRequest`` (Vision's `VNRectangleObservation`).
public struct RectangleObservation: QuadrilateralObservation, Equatable {
    /// Identifies the observation (Vision's `uuid`): new for each observation made, kept by its copies.
    public let uuid: UUID
    /// The rectangle's corners in upright pixels, origin at the top left.
    public var imageCorners: Quadrilateral
    /// The upright size of the image the rectangle was found in, in pixels.
    public var imageSize: CGSize
    /// How clearly all four sides stand out as straight edges, 0–1.
    public var confidence: Float

    /// A rectangle with `imageCorners` found in an image of `imageSize` upright pixels.
    public init(imageCorners: Quadrilateral, imageSize: CGSize, confidence: Float) {
        uuid = UUID()
        self.imageCorners = imageCorners
        self.imageSize = imageSize
        self.confidence = confidence
    }
}
