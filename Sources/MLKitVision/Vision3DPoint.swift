import Foundation

/// A point in three dimensions (ML Kit's `Vision3DPoint`): a pose landmark's position. `x` and `y` are in
/// pixels of the upright image, `z` on the scale of `x`. Two points are equal when their coordinates are.
public final class Vision3DPoint: VisionPoint, @unchecked Sendable {
    /// Depth, on the scale of `x`.
    public let z: CGFloat

    /// The point at (`x`, `y`, `z`); the pose detector makes them, as in ML Kit.
    package init(x: CGFloat, y: CGFloat, z: CGFloat) {
        self.z = z
        super.init(x: x, y: y)
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? Vision3DPoint else { return false }
        return other.x == x && other.y == y && other.z == z
    }

    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(super.hash)
        hasher.combine(z)
        return hasher.finalize()
    }

    public override var description: String { "(\(x), \(y), \(z))" }
}
