import Foundation

/// A decoded barcode, as ML Kit's `Barcode`.
public struct Barcode: Sendable, Equatable {
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
