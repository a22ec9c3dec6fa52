import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// A decoded barcode, as ML Kit's `Barcode`.
public struct Barcode: Sendable, Equatable, Codable {
    /// The symbology: exactly one format.
    public var format: BarcodeFormat
    /// The content as text (ML Kit's `rawValue`); for GS1 codes with application identifiers in parentheses.
    public var rawValue: String
    /// The content's bytes as encoded in the symbol (ML Kit's `rawData`).
    public var rawData: Data
    /// The symbol's corners in upright pixels, named in the symbol's own orientation: `topLeft` is
    /// the corner that is top left when the code is read upright. For linear codes the shape spans
    /// the bars across the lines where they were read.
    public var corners: Quadrilateral
    /// How far the symbol is turned clockwise from upright, in degrees.
    public var orientation: Int
    /// Whether the symbol was read mirrored.
    public var isMirrored: Bool
    /// The ISO/IEC 15424 symbology identifier, such as `]Q1` or `]E0`.
    public var symbologyIdentifier: String

    /// The smallest upright rectangle holding the symbol, in upright pixels (ML Kit's `frame`).
    public var frame: CGRect { corners.boundingBox }
}

extension Barcode {
    enum CodingKeys: String, CodingKey { case format, text, rawData, corners, orientation, isMirrored, symbologyIdentifier }

    /// Decodes a barcode from its JSON object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .format)
        guard let format = BarcodeFormat(name: name) else {
            throw DecodingError.dataCorruptedError(forKey: .format, in: container, debugDescription: "unknown format \(name)")
        }
        self.format = format
        rawValue = try container.decode(String.self, forKey: .text)
        rawData = try container.decodeIfPresent(Data.self, forKey: .rawData) ?? Data(rawValue.utf8)
        let points = try container.decode([PixelPoint].self, forKey: .corners).map(\.point)
        guard points.count == 4 else {
            throw DecodingError.dataCorruptedError(forKey: .corners, in: container, debugDescription: "a barcode has four corners")
        }
        corners = Quadrilateral(topLeft: points[0], topRight: points[1], bottomRight: points[2], bottomLeft: points[3])
        orientation = try container.decode(Int.self, forKey: .orientation)
        isMirrored = try container.decodeIfPresent(Bool.self, forKey: .isMirrored) ?? false
        symbologyIdentifier = try container.decodeIfPresent(String.self, forKey: .symbologyIdentifier) ?? ""
    }

    /// Encodes the format's name, the text, the bytes (base64), the corners (top left, top right,
    /// bottom right, bottom left) and the orientation.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format.description, forKey: .format)
        try container.encode(rawValue, forKey: .text)
        try container.encode(rawData, forKey: .rawData)
        try container.encode(corners.corners.map(PixelPoint.init), forKey: .corners)
        try container.encode(orientation, forKey: .orientation)
        try container.encode(isMirrored, forKey: .isMirrored)
        try container.encode(symbologyIdentifier, forKey: .symbologyIdentifier)
    }
}
