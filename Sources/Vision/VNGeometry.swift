import Foundation
import SwiftVisionCore

/// Vision's `VNImageRectForNormalizedRect`: `normalizedRect` (0–1 of the image, origin at the lower left)
/// scaled to an image of `imageWidth` × `imageHeight` pixels. As in Vision nothing is flipped, so the
/// result's origin is the image's lower left as well.
public func VNImageRectForNormalizedRect(_ normalizedRect: CGRect, _ imageWidth: Int, _ imageHeight: Int) -> CGRect {
    imageRect(forNormalizedRect: normalizedRect, width: imageWidth, height: imageHeight)
}

/// Vision's `VNNormalizedRectForImageRect`: `imageRect`, in pixels of an image of `imageWidth` ×
/// `imageHeight`, scaled to 0–1; the inverse of ``VNImageRectForNormalizedRect(_:_:_:)``.
public func VNNormalizedRectForImageRect(_ imageRect: CGRect, _ imageWidth: Int, _ imageHeight: Int) -> CGRect {
    normalizedRect(forImageRect: imageRect, width: imageWidth, height: imageHeight)
}

/// Vision's `VNImagePointForNormalizedPoint`: `normalizedPoint` scaled to an image of `imageWidth` ×
/// `imageHeight` pixels, its origin at the lower left as the normalised point's is.
public func VNImagePointForNormalizedPoint(_ normalizedPoint: CGPoint, _ imageWidth: Int, _ imageHeight: Int) -> CGPoint {
    imagePoint(forNormalizedPoint: normalizedPoint, width: imageWidth, height: imageHeight)
}

/// Vision's `VNImageRectForNormalizedRectUsingRegionOfInterest`: `normalizedRect`, reported relative to the
/// region of interest `roi` (both 0–1, origin at the lower left), in pixels of the whole image of
/// `imageWidth` × `imageHeight`, origin at its lower left.
public func VNImageRectForNormalizedRectUsingRegionOfInterest(
    _ normalizedRect: CGRect, _ imageWidth: Int, _ imageHeight: Int, _ roi: CGRect
) -> CGRect {
    VNImageRectForNormalizedRect(
        CGRect(
            x: roi.minX + normalizedRect.minX * roi.width, y: roi.minY + normalizedRect.minY * roi.height,
            width: normalizedRect.width * roi.width, height: normalizedRect.height * roi.height),
        imageWidth, imageHeight)
}

/// Vision's `VNNormalizedRectForImageRectUsingRegionOfInterest`: `imageRect`, in pixels of an image of
/// `imageWidth` × `imageHeight` (origin at the lower left), normalised to the region of interest `roi`;
/// the inverse of ``VNImageRectForNormalizedRectUsingRegionOfInterest(_:_:_:_:)``.
public func VNNormalizedRectForImageRectUsingRegionOfInterest(
    _ imageRect: CGRect, _ imageWidth: Int, _ imageHeight: Int, _ roi: CGRect
) -> CGRect {
    let whole = VNNormalizedRectForImageRect(imageRect, imageWidth, imageHeight)
    return CGRect(
        x: (whole.minX - roi.minX) / roi.width, y: (whole.minY - roi.minY) / roi.height,
        width: whole.width / roi.width, height: whole.height / roi.height)
}

/// Vision's `VNImagePointForNormalizedPointUsingRegionOfInterest`: `normalizedPoint`, reported relative to
/// the region of interest `roi`, in pixels of the whole image (origin at its lower left).
public func VNImagePointForNormalizedPointUsingRegionOfInterest(
    _ normalizedPoint: CGPoint, _ imageWidth: Int, _ imageHeight: Int, _ roi: CGRect
) -> CGPoint {
    VNImagePointForNormalizedPoint(
        CGPoint(x: roi.minX + normalizedPoint.x * roi.width, y: roi.minY + normalizedPoint.y * roi.height),
        imageWidth, imageHeight)
}

/// Vision's `VNNormalizedPointForImagePointUsingRegionOfInterest`: `imagePoint`, in pixels of the whole
/// image (origin at its lower left), normalised to the region of interest `roi`.
public func VNNormalizedPointForImagePointUsingRegionOfInterest(
    _ imagePoint: CGPoint, _ imageWidth: Int, _ imageHeight: Int, _ roi: CGRect
) -> CGPoint {
    CGPoint(
        x: (imagePoint.x / CGFloat(imageWidth) - roi.minX) / roi.width,
        y: (imagePoint.y / CGFloat(imageHeight) - roi.minY) / roi.height)
}
