import Foundation
import SwiftVisionCore

/// The gray levels of a gray image, read anywhere between pixels by bilinear interpolation.
///
/// Fitting the sides and corners of the candidates reads a few hundred thousand levels per image; kept
/// in this module, each read is inlined into the loops that take it rather than a call into another.
struct GrayLevels {
    let width: Int
    let height: Int
    private let bytesPerRow: Int
    private let pixels: [UInt8]

    /// The levels of `buffer`, a gray image.
    init(_ buffer: PixelBuffer) {
        precondition(buffer.format == .gray, "GrayLevels reads gray images")
        (width, height, bytesPerRow, pixels) = (buffer.width, buffer.height, buffer.bytesPerRow, buffer.bytes)
    }

    /// The level at (`x`, `y`), interpolated between the four nearest pixels; points outside the image
    /// read its nearest edge.
    @inline(__always)
    func intensity(x: Double, y: Double) -> Double {
        let x = min(max(x, 0), Double(width - 1)), y = min(max(y, 0), Double(height - 1))
        let left = Int(x), top = Int(y)
        let right = min(left + 1, width - 1), bottom = min(top + 1, height - 1)
        let fx = x - Double(left), fy = y - Double(top)
        return pixels.withUnsafeBufferPointer { levels in
            let upperRow = top * bytesPerRow, lowerRow = bottom * bytesPerRow
            let upper = Double(levels[upperRow + left]) * (1 - fx) + Double(levels[upperRow + right]) * fx
            let lower = Double(levels[lowerRow + left]) * (1 - fx) + Double(levels[lowerRow + right]) * fx
            return upper * (1 - fy) + lower * fy
        }
    }
}
