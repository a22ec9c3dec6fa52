import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// A rectangle seen in an image, possibly in perspective.
public struct DetectedRectangle: Sendable, Equatable, Codable {
    /// The corners in upright pixels, origin at the top left; "top left" is the corner nearest the image's top left.
    public var corners: Quadrilateral
    /// How clearly all four sides stand out as straight edges, 0–1.
    public var confidence: Float

    /// A rectangle with `corners` and `confidence`.
    public init(corners: Quadrilateral, confidence: Float) {
        self.corners = corners
        self.confidence = confidence
    }

    enum CodingKeys: String, CodingKey { case topLeft, topRight, bottomRight, bottomLeft, confidence }

    /// Decodes `{"topLeft","topRight","bottomRight","bottomLeft","confidence"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func point(_ key: CodingKeys) throws -> CGPoint { try container.decode(PixelPoint.self, forKey: key).point }
        corners = Quadrilateral(
            topLeft: try point(.topLeft), topRight: try point(.topRight), bottomRight: try point(.bottomRight),
            bottomLeft: try point(.bottomLeft))
        confidence = try container.decode(Float.self, forKey: .confidence)
    }

    /// Encodes the corners as points in pixels and the confidence.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(PixelPoint(corners.topLeft), forKey: .topLeft)
        try container.encode(PixelPoint(corners.topRight), forKey: .topRight)
        try container.encode(PixelPoint(corners.bottomRight), forKey: .bottomRight)
        try container.encode(PixelPoint(corners.bottomLeft), forKey: .bottomLeft)
        try container.encode(confidence, forKey: .confidence)
    }
}
