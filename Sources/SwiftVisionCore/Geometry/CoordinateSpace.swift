import Foundation

/// The three ways SwiftVision and its peers express positions in an image.
public enum CoordinateSpace: Sendable, Equatable {
    /// Pixels of the upright image, origin at the top left (ML Kit, MediaPipe pixel results, this package's results).
    case pixels
    /// 0…1 of the image's width and height, origin at the top left (MediaPipe's normalised results).
    case normalizedTopLeft
    /// 0…1 of the image's width and height, origin at the lower left (Apple Vision's observations).
    case normalizedLowerLeft
}

extension CGPoint {
    /// This point, given in `space` of an image of `imageSize`, expressed in `target`.
    public func converted(from space: CoordinateSpace, to target: CoordinateSpace, imageSize: CGSize) -> CGPoint {
        let pixel: CGPoint =
            switch space {
            case .pixels: self
            case .normalizedTopLeft: CGPoint(x: x * imageSize.width, y: y * imageSize.height)
            case .normalizedLowerLeft: CGPoint(x: x * imageSize.width, y: (1 - y) * imageSize.height)
            }
        switch target {
        case .pixels: return pixel
        case .normalizedTopLeft: return CGPoint(x: pixel.x / imageSize.width, y: pixel.y / imageSize.height)
        case .normalizedLowerLeft: return CGPoint(x: pixel.x / imageSize.width, y: 1 - pixel.y / imageSize.height)
        }
    }

    /// The point mirrored left to right inside a frame of `width` (a front camera's view).
    public func mirroredHorizontally(inWidth width: CGFloat) -> CGPoint {
        CGPoint(x: width - x, y: y)
    }
}

extension CGRect {
    /// This rectangle, given in `space` of an image of `imageSize`, expressed in `target`.
    public func converted(from space: CoordinateSpace, to target: CoordinateSpace, imageSize: CGSize) -> CGRect {
        let a = CGPoint(x: minX, y: minY).converted(from: space, to: target, imageSize: imageSize)
        let b = CGPoint(x: maxX, y: maxY).converted(from: space, to: target, imageSize: imageSize)
        return CGRect(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
    }

    /// The rectangle mirrored left to right inside a frame of `width`.
    public func mirroredHorizontally(inWidth width: CGFloat) -> CGRect {
        CGRect(x: width - maxX, y: minY, width: self.width, height: height)
    }
}

/// Vision's `VNImageRectForNormalizedRect`: a normalised rectangle projected into image coordinates by
/// scaling alone. As in Vision, nothing is flipped: a lower-left normalised rectangle gives a rectangle
/// in pixels with the origin at the lower left (for top-left pixels use
/// `converted(from: .normalizedLowerLeft, to: .pixels, imageSize:)`).
public func imageRect(forNormalizedRect rect: CGRect, width: Int, height: Int) -> CGRect {
    CGRect(
        x: rect.minX * CGFloat(width), y: rect.minY * CGFloat(height), width: rect.width * CGFloat(width),
        height: rect.height * CGFloat(height))
}

/// Vision's `VNNormalizedRectForImageRect`: a rectangle in image coordinates normalised by scaling alone,
/// the inverse of ``imageRect(forNormalizedRect:width:height:)``.
public func normalizedRect(forImageRect rect: CGRect, width: Int, height: Int) -> CGRect {
    CGRect(
        x: rect.minX / CGFloat(width), y: rect.minY / CGFloat(height), width: rect.width / CGFloat(width),
        height: rect.height / CGFloat(height))
}

/// Vision's `VNImagePointForNormalizedPoint`: a normalised point projected into image coordinates by
/// scaling alone (origin where the normalised point's is).
public func imagePoint(forNormalizedPoint point: CGPoint, width: Int, height: Int) -> CGPoint {
    CGPoint(x: point.x * CGFloat(width), y: point.y * CGFloat(height))
}
