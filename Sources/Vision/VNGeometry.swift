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
