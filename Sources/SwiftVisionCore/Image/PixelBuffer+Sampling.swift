import CVisionShim
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

    /// Steps in gray level across a line of a gray buffer, at each of `bases` on it: the profile at
    /// `base + across × offset` for each of `offsets` (half a pixel apart, at least five of them), each the
    /// mean of three values (``intensity(x:y:)``) at that point and a step of `along` before and after it;
    /// for each base, one after another, the profile at each offset but the last four less the profile at
    /// the offset four before it (the step over two pixels). One shim call for a whole line, with the
    /// arithmetic of ``intensity(x:y:)``, so that the values are the same to the last bit.
    package func profileSteps(
        at bases: [SIMD2<Double>], across: SIMD2<Double>, along: SIMD2<Double>, offsets: [Double]
    ) throws -> [Double] {
        guard format == .gray, offsets.count >= 5 else {
            throw ImageError.processingFailed("profile steps need a gray buffer and at least 5 offsets")
        }
        let stepCount = offsets.count - 4
        // Left unset until the library writes every step: zeroing them first took 1 % of a MIDV-500 frame.
        return try [Double](unsafeUninitializedCapacity: bases.count * stepCount) { steps, written in
            try withView { view in
                try bases.withUnsafeBufferPointer { bases in
                    try bases.withMemoryRebound(to: Double.self) { bases in
                        try shimCall {
                            sv_profile_steps(
                                view, bases.baseAddress, Int32(bases.count / 2), [across.x, across.y], [along.x, along.y],
                                offsets, Int32(offsets.count), steps.baseAddress)
                        }
                    }
                }
            }
            written = steps.count
        }
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
