import Foundation

/// A rectangle turned about its centre, in pixels of the upright image: the crop a landmark model sees.
public struct RotatedRect: Sendable, Equatable, Codable {
    /// The centre, in upright pixels.
    public var center: CGPoint
    /// The width and height before rotation, in pixels.
    public var size: CGSize
    /// Clockwise rotation in radians (image y points down).
    public var rotation: Double

    /// A rectangle of `size` centred on `center`, turned clockwise by `rotation` radians.
    public init(center: CGPoint, size: CGSize, rotation: Double) {
        self.center = center
        self.size = size
        self.rotation = rotation
    }

    /// The point at `(u, v)` in 0…1 of the rectangle's own width and height (before rotation).
    public func point(atNormalized u: Double, _ v: Double) -> CGPoint {
        let dx = (u - 0.5) * size.width
        let dy = (v - 0.5) * size.height
        let (sine, cosine) = (sin(rotation), cos(rotation))
        return CGPoint(x: center.x + dx * cosine - dy * sine, y: center.y + dx * sine + dy * cosine)
    }

    /// Corners: top left, top right, bottom right, bottom left (before rotation).
    public var corners: Quadrilateral {
        Quadrilateral(
            topLeft: point(atNormalized: 0, 0), topRight: point(atNormalized: 1, 0),
            bottomRight: point(atNormalized: 1, 1), bottomLeft: point(atNormalized: 0, 1))
    }

    /// The same rectangle scaled about its centre and, with `squareLong`, grown to a square on its longer side.
    public func scaled(by scale: Double, squareLong: Bool = true) -> RotatedRect {
        var size = CGSize(width: self.size.width * scale, height: self.size.height * scale)
        if squareLong {
            let side = max(size.width, size.height)
            size = CGSize(width: side, height: side)
        }
        return RotatedRect(center: center, size: size, rotation: rotation)
    }

    /// The same rectangle seen in a mirror along its own vertical axis: its width becomes negative, so
    /// `point(atNormalized:)` runs from right to left.
    public func mirrored() -> RotatedRect {
        RotatedRect(center: center, size: CGSize(width: -size.width, height: size.height), rotation: rotation)
    }

    /// The rotation that makes the line from `start` to `end` horizontal, pointing right.
    public static func rotation(from start: CGPoint, to end: CGPoint) -> Double {
        atan2(end.y - start.y, end.x - start.x)
    }
}
