import Foundation
import SwiftVisionCore

/// A per-pixel confidence map over the upright image (MediaPipe's confidence mask): one value 0–1 per
/// pixel, row by row from the top left.
public struct ConfidenceMask: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width` × `height` confidences, 0–1, row-major.
    public let values: [Float]

    /// A mask of `values` laid out in rows of `width`.
    public init(width: Int, height: Int, values: [Float]) {
        precondition(values.count == width * height, "a \(width)×\(height) mask needs \(width * height) values")
        self.width = width
        self.height = height
        self.values = values
    }

    /// The confidence at pixel (`x`, `y`).
    public subscript(x: Int, y: Int) -> Float { values[y * width + x] }

    /// The confidences as a plane of floats, for drawing and encoding.
    public func plane() throws -> FloatPlane {
        try FloatPlane(width: width, height: height, values: values)
    }

    /// The same mask seen in a mirror: each row reversed.
    func mirrored() -> ConfidenceMask {
        ConfidenceMask(width: width, height: height, values: (0..<height).flatMap { values[($0 * width)..<(($0 + 1) * width)].reversed() })
    }
}

extension ConfidenceMask: Codable {
    /// Decodes a ``SegmentationMask`` object into its confidences.
    public init(from decoder: any Decoder) throws {
        let mask = try SegmentationMask(from: decoder)
        self.init(width: mask.width, height: mask.height, values: mask.confidences)
    }

    /// Encodes the mask as a ``SegmentationMask`` object (`{"width","height","personFraction","mask"}`, the
    /// mask an 8-bit gray PNG).
    public func encode(to encoder: any Encoder) throws {
        try SegmentationMask(plane: plane()).encode(to: encoder)
    }
}
