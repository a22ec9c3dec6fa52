/// An 8-bit sRGB colour for annotations.
public struct DrawingColor: Sendable, Equatable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let red = DrawingColor(red: 230, green: 40, blue: 40)
    public static let green = DrawingColor(red: 40, green: 200, blue: 70)
    public static let blue = DrawingColor(red: 40, green: 110, blue: 240)
    public static let yellow = DrawingColor(red: 250, green: 210, blue: 30)
    public static let white = DrawingColor(red: 255, green: 255, blue: 255)
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
