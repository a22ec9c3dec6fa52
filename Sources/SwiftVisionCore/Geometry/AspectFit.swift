import Foundation

/// Places an image inside a view with its aspect ratio kept (the seeds' `transformMatrix()` and
/// `convertRect`): how overlays line up with a photo shown "aspect fit".
public struct AspectFit: Sendable, Equatable {
    /// The image's size in pixels.
    public let imageSize: CGSize
    /// The view's size in points.
    public let viewSize: CGSize

    /// Fits an image of `imageSize` pixels into a view of `viewSize` points.
    public init(imageSize: CGSize, viewSize: CGSize) {
        self.imageSize = imageSize
        self.viewSize = viewSize
    }

    /// View points per image pixel.
    public var scale: CGFloat { min(viewSize.width / imageSize.width, viewSize.height / imageSize.height) }

    /// Where the image appears in the view.
    public var imageFrame: CGRect {
        let size = CGSize(width: imageSize.width * scale, height: imageSize.height * scale)
        return CGRect(
            x: (viewSize.width - size.width) / 2, y: (viewSize.height - size.height) / 2, width: size.width,
            height: size.height)
    }

    /// The affine transform from image pixels (top-left origin) to view points.
    public var transform: AffineTransform {
        let frame = imageFrame
        return AffineTransform(m11: scale, m12: 0, m21: 0, m22: scale, tX: frame.minX, tY: frame.minY)
    }

    /// A rectangle given in `space` of the image, in view points.
    public func viewRect(for rect: CGRect, in space: CoordinateSpace = .normalizedLowerLeft) -> CGRect {
        let pixels = rect.converted(from: space, to: .pixels, imageSize: imageSize)
        let frame = imageFrame
        return CGRect(
            x: frame.minX + pixels.minX * scale, y: frame.minY + pixels.minY * scale, width: pixels.width * scale,
            height: pixels.height * scale)
    }

    /// A point given in `space` of the image, in view points.
    public func viewPoint(for point: CGPoint, in space: CoordinateSpace = .normalizedLowerLeft) -> CGPoint {
        transform.transform(point.converted(from: space, to: .pixels, imageSize: imageSize))
    }
}
