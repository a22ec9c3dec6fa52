import Foundation

/// A landmark in pixels of the upright image (a face mesh point; later hand and body joints): `z` is
/// depth on the scale of `x`, smaller is nearer; `visibility` and `presence` are 0–1 when the model
/// gives them.
public struct Landmark: Sendable, Hashable, Codable {
    /// Distance from the left edge, in pixels.
    public var x: Double
    /// Distance from the top edge, in pixels.
    public var y: Double
    /// Depth, in pixels: smaller is nearer.
    public var z: Double
    /// How likely the landmark is visible (not occluded), when the model says.
    public var visibility: Float?
    /// How likely the landmark is inside the image, when the model says.
    public var presence: Float?

    /// A landmark at (`x`, `y`, `z`).
    public init(x: Double, y: Double, z: Double, visibility: Float? = nil, presence: Float? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }

    /// The landmark's position in the image plane.
    public var point: CGPoint { CGPoint(x: x, y: y) }
}

/// A point of the face mesh.
public typealias FaceMeshPoint = Landmark
