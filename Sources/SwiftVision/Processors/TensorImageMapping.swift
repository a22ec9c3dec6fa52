import Foundation

/// Where a region of the upright image landed in a tensor: maps tensor coordinates back to image pixels.
public struct TensorImageMapping: Sendable, Equatable {
    /// The image region that was converted, in upright pixels.
    public let region: CGRect
    /// The part of the tensor the region fills, in tensor pixels (smaller than the tensor when letterboxed).
    public let content: CGRect
    /// The tensor size.
    public let tensorSize: CGSize

    /// The image point of a tensor point given in tensor pixels.
    public func imagePoint(fromTensorPoint point: CGPoint) -> CGPoint {
        CGPoint(
            x: region.minX + (point.x - content.minX) * region.width / content.width,
            y: region.minY + (point.y - content.minY) * region.height / content.height)
    }

    /// The image point of a tensor point given in 0…1 of the tensor's width and height.
    public func imagePoint(fromNormalizedTensorPoint point: CGPoint) -> CGPoint {
        imagePoint(fromTensorPoint: CGPoint(x: point.x * tensorSize.width, y: point.y * tensorSize.height))
    }

    /// The image rectangle of a tensor rectangle given in 0…1 of the tensor's width and height.
    public func imageRect(fromNormalizedTensorRect rect: CGRect) -> CGRect {
        let origin = imagePoint(fromNormalizedTensorPoint: rect.origin)
        let corner = imagePoint(fromNormalizedTensorPoint: CGPoint(x: rect.maxX, y: rect.maxY))
        return CGRect(x: origin.x, y: origin.y, width: corner.x - origin.x, height: corner.y - origin.y)
    }
}
