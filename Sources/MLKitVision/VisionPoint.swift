import Foundation

/// A point in an image, in the image's pixels (ML Kit's `VisionPoint`): where a face landmark lies, and
/// the points of a face contour. A class, as in ML Kit, so that a pose's ``Vision3DPoint`` is one too.
/// Two points are equal when their coordinates are.
public class VisionPoint: NSObject, @unchecked Sendable {
    /// Distance from the image's left edge, in pixels of the upright image.
    public let x: CGFloat
    /// Distance from the image's top edge, in pixels of the upright image.
    public let y: CGFloat

    /// The point at (`x`, `y`); the detectors make them, as in ML Kit, where `init` is unavailable.
    package init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }

    /// The point at `point`.
    package convenience init(_ point: CGPoint) {
        self.init(x: point.x, y: point.y)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? VisionPoint, type(of: other) == type(of: self) else { return false }
        return other.x == x && other.y == y
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(x)
        hasher.combine(y)
        return hasher.finalize()
    }

    public override var description: String { "(\(x), \(y))" }
}
