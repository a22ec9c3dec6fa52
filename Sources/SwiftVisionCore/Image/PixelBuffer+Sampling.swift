import Foundation

extension PixelBuffer {
    /// The bilinearly interpolated value of a gray buffer at (`x`, `y`), pixel centres at whole
    /// coordinates; points outside are clamped to the border.
    package func intensity(x: Double, y: Double) -> Double {
        let x = min(max(x, 0), Double(width - 1)), y = min(max(y, 0), Double(height - 1))
        let left = Int(x), top = Int(y)
        let right = min(left + 1, width - 1), bottom = min(top + 1, height - 1)
        let fx = x - Double(left), fy = y - Double(top)
        func value(_ column: Int, _ row: Int) -> Double { Double(bytes[row * bytesPerRow + column]) }
        let upper = value(left, top) * (1 - fx) + value(right, top) * fx
        let lower = value(left, bottom) * (1 - fx) + value(right, bottom) * fx
        return upper * (1 - fy) + lower * fy
    }

    /// A gray copy shrunk so that its longer side is at most `maximumSide` pixels, and the factors
    /// that map its coordinates back to this buffer's.
    package func grayscaled(maximumSide: Int) throws -> (buffer: PixelBuffer, scale: CGSize) {
        let gray = try interleaved().converted(to: .gray)
        let factor = Double(max(width, height)) / Double(maximumSide)
        guard factor > 1 else { return (gray, CGSize(width: 1, height: 1)) }
        let small = try gray.resized(
            width: max(1, Int((Double(width) / factor).rounded())), height: max(1, Int((Double(height) / factor).rounded())))
        return (small, CGSize(width: Double(width) / Double(small.width), height: Double(height) / Double(small.height)))
    }
}
