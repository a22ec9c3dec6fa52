/// A rectangle seen in an image, possibly in perspective.
public struct DetectedRectangle: Sendable, Equatable, Codable {
    /// The corners in upright pixels, origin at the top left; "top left" is the corner nearest the image's top left.
    public var corners: Quadrilateral
    /// How clearly all four sides stand out as straight edges, 0–1.
    public var confidence: Float

    public init(corners: Quadrilateral, confidence: Float) {
        self.corners = corners
        self.confidence = confidence
    }
}
