import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// An observation located by four corners, as Vision's `VNRectangleObservation`: the corners in
/// Vision's normalised coordinates (0–1 of the image, origin at the lower left) and in pixels of
/// the upright image (origin at the top left).
///
/// Unlike Vision, coordinates are normalised to the whole image even when a request has a region
/// of interest.
public protocol QuadrilateralObservation: VisionObservation {
    /// The corners in upright pixels, origin at the top left.
    var imageCorners: Quadrilateral { get }
    /// The upright size of the image the observation was made in.
    var imageSize: CGSize { get }
}

extension QuadrilateralObservation {
    /// The corners normalised, origin at the lower left; names keep their meaning (`topLeft` is still the top left).
    public var normalizedCorners: Quadrilateral {
        imageCorners.converted(from: .pixels, to: .normalizedLowerLeft, imageSize: imageSize)
    }

    /// The top-left corner, normalised, origin at the lower left.
    public var topLeft: CGPoint { normalizedCorners.topLeft }
    /// The top-right corner, normalised, origin at the lower left.
    public var topRight: CGPoint { normalizedCorners.topRight }
    /// The bottom-right corner, normalised, origin at the lower left.
    public var bottomRight: CGPoint { normalizedCorners.bottomRight }
    /// The bottom-left corner, normalised, origin at the lower left.
    public var bottomLeft: CGPoint { normalizedCorners.bottomLeft }

    /// The smallest rectangle around the corners, normalised, origin at the lower left.
    public var boundingBox: CGRect { normalizedCorners.boundingBox }
    /// The smallest rectangle around the corners in upright pixels, origin at the top left.
    public var imageBoundingBox: CGRect { imageCorners.boundingBox }
}

extension Quadrilateral {
    /// The quadrilateral moved by `offset`.
    func offset(by offset: CGPoint) -> Quadrilateral {
        applying { CGPoint(x: $0.x + offset.x, y: $0.y + offset.y) }
    }
}
