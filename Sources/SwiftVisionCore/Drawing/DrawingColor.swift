/// An 8-bit sRGB colour for annotations.
public struct DrawingColor: Sendable, Equatable, Hashable {
    /// The red component, 0–255.
    public var red: UInt8
    /// The green component, 0–255.
    public var green: UInt8
    /// The blue component, 0–255.
    public var blue: UInt8

    /// A colour with the given 0–255 components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// A strong red.
    public static let red = DrawingColor(red: 230, green: 40, blue: 40)
    /// A strong green.
    public static let green = DrawingColor(red: 40, green: 200, blue: 70)
    /// A strong blue.
    public static let blue = DrawingColor(red: 40, green: 110, blue: 240)
    /// A warm yellow.
    public static let yellow = DrawingColor(red: 250, green: 210, blue: 30)
    /// Pure white.
    public static let white = DrawingColor(red: 255, green: 255, blue: 255)
    /// Pure black.
    public static let black = DrawingColor(red: 0, green: 0, blue: 0)

    /// A distinct colour for the `index`th item of a list (tracking IDs, classes).
    public static func palette(_ index: Int) -> DrawingColor {
        let colors: [DrawingColor] = [
            .red, .green, .blue, .yellow, DrawingColor(red: 200, green: 60, blue: 220),
            DrawingColor(red: 30, green: 200, blue: 210), DrawingColor(red: 255, green: 140, blue: 20),
        ]
        return colors[((index % colors.count) + colors.count) % colors.count]
    }

    /// BGRA components for OpenCV.
    var bgra: [Double] { [Double(blue), Double(green), Double(red), 255] }
}
