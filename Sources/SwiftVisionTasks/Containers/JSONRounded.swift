import Foundation

/// How many decimals a ``JSONRounded`` number keeps in JSON.
public protocol DecimalPlaces: Sendable {
    /// The number of decimals.
    static var count: Int { get }
}

/// Three decimals, as JSON writes scores and confidences.
public enum Thousandths: DecimalPlaces {
    /// Three.
    public static let count = 3
}

/// One decimal, as JSON writes angles in degrees.
public enum Tenths: DecimalPlaces {
    /// One.
    public static let count = 1
}

/// A number that its JSON carries rounded to `Places` decimals, without noise digits, while Swift code
/// sees every digit; decoding takes the number as it is written.
@propertyWrapper
public struct JSONRounded<Places: DecimalPlaces, Value: BinaryFloatingPoint & Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
    /// The number, every digit.
    public var wrappedValue: Value

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes the number as it is written.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Value.self)
    }

    /// Encodes the number rounded to `Places` decimals.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.rounded(toPlaces: Places.count))
    }
}

/// A number that JSON writes to three decimals.
public typealias ThreeDecimals<Value: BinaryFloatingPoint & Codable & Hashable & Sendable> = JSONRounded<Thousandths, Value>
/// A number that JSON writes to one decimal.
public typealias OneDecimal<Value: BinaryFloatingPoint & Codable & Hashable & Sendable> = JSONRounded<Tenths, Value>
