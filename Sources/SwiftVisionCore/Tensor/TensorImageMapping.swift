import Foundation

/// Where a region of the upright image landed in a tensor: maps tensor coordinates back to image pixels.
public struct TensorImageMapping: Sendable, Equatable {
    /// Tensor pixels → upright image pixels.
    public let transform: AffineTransform
    /// The part of the tensor the image fills, in tensor pixels (smaller than the tensor when letterboxed).
    public let content: CGRect
    /// The tensor size.
    public let tensorSize: CGSize

    /// The image region that was converted: the bounding box of the content, in upright pixels.
    public var region: CGRect { imageRect(fromTensorRect: content) }

    /// The image point of a tensor point given in tensor pixels.
    public func imagePoint(fromTensorPoint point: CGPoint) -> CGPoint {
        transform.transform(point)
    }

    /// The image point of a tensor point given in 0…1 of the tensor's width and height.
    public func imagePoint(fromNormalizedTensorPoint point: CGPoint) -> CGPoint {
        imagePoint(fromTensorPoint: CGPoint(x: point.x * tensorSize.width, y: point.y * tensorSize.height))
    }

    /// The bounding box in the image of a tensor rectangle given in 0…1 of the tensor's width and height.
    public func imageRect(fromNormalizedTensorRect rect: CGRect) -> CGRect {
        imageRect(fromTensorRect: CGRect(
            x: rect.minX * tensorSize.width, y: rect.minY * tensorSize.height, width: rect.width * tensorSize.width,
            height: rect.height * tensorSize.height))
    }

    private func imageRect(fromTensorRect rect: CGRect) -> CGRect {
        Quadrilateral(rect: rect).corners.map(imagePoint(fromTensorPoint:)).boundingBox
    }
}

extension Array where Element == CGPoint {
    /// The smallest upright rectangle holding every point.
    package var boundingBox: CGRect {
        guard let first else { return .null }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in dropFirst() {
            minX = Swift.min(minX, point.x)
            minY = Swift.min(minY, point.y)
            maxX = Swift.max(maxX, point.x)
            maxY = Swift.max(maxY, point.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
