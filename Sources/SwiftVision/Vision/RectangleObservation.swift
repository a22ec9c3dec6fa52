import Foundation

/// A rectangle found by ``DetectRectanglesRequest`` (Vision's `VNRectangleObservation`).
public struct RectangleObservation: QuadrilateralObservation, Equatable {
    public var pixelCorners: Quadrilateral
    public var imageSize: CGSize
    public var confidence: Float

    public init(pixelCorners: Quadrilateral, imageSize: CGSize, confidence: Float) {
        self.pixelCorners = pixelCorners
        self.imageSize = imageSize
        self.confidence = confidence
    }
}
