import Foundation

/// A rectangle in pixels of the upright image, origin at the top left, as the JSON of every command:
/// `{"x","y","width","height"}`, rounded to hundredths of a pixel.
public struct PixelRect: Sendable, Hashable, Codable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double

    /// The rectangle `rect`.
    public init(_ rect: CGRect) {
        (x, y, width, height) = (Double(rect.minX), Double(rect.minY), Double(rect.width), Double(rect.height))
    }

    /// The rectangle as a `CGRect`.
    public var rect: CGRect { CGRect(x: x, y: y, width: width, height: height) }

    enum CodingKeys: String, CodingKey { case x, y, width, height }

    /// Decodes `{"x","y","width","height"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        x = try container.decode(Double.self, forKey: .x)
        y = try container.decode(Double.self, forKey: .y)
        width = try container.decode(Double.self, forKey: .width)
        height = try container.decode(Double.self, forKey: .height)
    }

    /// Encodes `{"x","y","width","height"}` rounded to hundredths.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(x.rounded(toPlaces: 2), forKey: .x)
        try container.encode(y.rounded(toPlaces: 2), forKey: .y)
        try container.encode(width.rounded(toPlaces: 2), forKey: .width)
        try container.encode(height.rounded(toPlaces: 2), forKey: .height)
    }
}

/// A point in pixels of the upright image, as JSON `{"x","y"}` rounded to hundredths of a pixel.
public struct PixelPoint: Sendable, Hashable, Codable {
    /// Distance from the left edge.
    public var x: Double
    /// Distance from the top edge.
    public var y: Double

    /// The point `point`.
    public init(_ point: CGPoint) {
        (x, y) = (Double(point.x), Double(point.y))
    }

    /// The point as a `CGPoint`.
    public var point: CGPoint { CGPoint(x: x, y: y) }

    enum CodingKeys: String, CodingKey { case x, y }

    /// Decodes `{"x","y"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        x = try container.decode(Double.self, forKey: .x)
        y = try container.decode(Double.self, forKey: .y)
    }

    /// Encodes `{"x","y"}` rounded to hundredths.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(x.rounded(toPlaces: 2), forKey: .x)
        try container.encode(y.rounded(toPlaces: 2), forKey: .y)
    }
}

extension BinaryFloatingPoint {
    /// The value rounded to `places` decimals, for JSON that does not carry noise digits; a small negative
    /// value gives 0, not -0 (which JSONEncoder would write as `-0`).
    package func rounded(toPlaces places: Int) -> Self {
        var scale: Self = 1
        for _ in 0..<places { scale *= 10 }
        let rounded = (self * scale).rounded() / scale
        return rounded == 0 ? 0 : rounded
    }
}
