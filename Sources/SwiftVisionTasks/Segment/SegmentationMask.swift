import Foundation
import SwiftVisionCore

/// A person mask: one confidence per pixel, 0 (background) to 1 (person), upright, row after row
/// with the origin at the top left. The segmentation task's container, which ML Kit's
/// `SegmentationMask`, Vision's person segmentation observation and the command line present.
///
/// Its JSON stays small: `{"width","height","personFraction","mask"}`, where `mask` is the base64 of
/// an 8-bit gray PNG of the mask (round(confidence × 255); 255 = person) and `personFraction` the
/// fraction of pixels whose confidence is at least 0.5. Decoding the JSON gives the confidences back
/// to within 1/510.
public struct SegmentationMask: Sendable, Equatable {
    /// The confidences as a plane of floats.
    public let plane: FloatPlane

    /// The confidence at or above which a pixel counts as a person.
    public static let personThreshold: Float = 0.5

    /// The mask of `plane`.
    public init(plane: FloatPlane) {
        self.plane = plane
    }

    /// A mask of `confidences` (`width` × `height` values, row after row).
    public init(width: Int, height: Int, confidences: [Float]) throws {
        plane = try FloatPlane(width: width, height: height, values: confidences)
    }

    /// The mask of an 8-bit gray PNG or JPEG (255 = person), such as the command's `--mask` file.
    public init(imageData: Data) throws {
        plane = try FloatPlane(gray: VisionImage(data: imageData).upright().buffer)
    }

    /// The width in pixels.
    public var width: Int { plane.width }
    /// The height in pixels.
    public var height: Int { plane.height }
    /// The confidences 0–1, `width` × `height` values row after row.
    public var confidences: [Float] { plane.values }
    /// The confidences, under ML Kit's name for them (there a `CVPixelBuffer` of 32-bit floats).
    public var buffer: [Float] { plane.values }

    /// The confidence that the pixel at column `x`, row `y` belongs to a person.
    public func confidence(atX x: Int, y: Int) -> Float {
        plane[x, y]
    }

    /// The fraction of pixels whose confidence is at least ``personThreshold``.
    public var personFraction: Double {
        plane.fraction(atLeast: Self.personThreshold)
    }

    /// The mask scaled bilinearly to `width` × `height`.
    public func resized(width: Int, height: Int) throws -> SegmentationMask {
        SegmentationMask(plane: try plane.resized(width: width, height: height))
    }

    /// The mask as an 8-bit gray image: round(confidence × 255), 255 = person.
    public func grayImage() throws -> VisionImage {
        VisionImage(buffer: try plane.grayBuffer())
    }

    /// The mask as an 8-bit gray PNG (255 = person).
    public func pngData() throws -> Data {
        try grayImage().encoded(as: .png)
    }
}

extension SegmentationMask: Codable {
    enum CodingKeys: String, CodingKey { case width, height, personFraction, mask }

    /// Decodes `{"width","height","mask"}`: the PNG must have the stated size.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            base64PNG: container.decode(String.self, forKey: .mask), width: container.decode(Int.self, forKey: .width),
            height: container.decode(Int.self, forKey: .height), codingPath: container.codingPath)
    }

    /// Encodes `{"width","height","personFraction","mask"}`, the fraction to four decimals.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(personFraction.rounded(toPlaces: 4), forKey: .personFraction)
        try container.encode(try pngData().base64EncodedString(), forKey: .mask)
    }

    /// The mask of a base64 PNG that must be `width` × `height`.
    init(base64PNG: String, width: Int, height: Int, codingPath: [any CodingKey]) throws {
        guard let data = Data(base64Encoded: base64PNG) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "the mask is not base64"))
        }
        try self.init(imageData: data)
        guard self.width == width, self.height == height else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath,
                    debugDescription: "the mask PNG is \(self.width)×\(self.height), the JSON says \(width)×\(height)"))
        }
    }
}
