import Foundation
import SwiftVisionCore

/// The gray levels of a gray image, read anywhere between pixels by bilinear interpolation.
///
/// Fitting the sides and corners of the candidates reads a few hundred thousand levels per image: they
/// are read through a ``Sampler``, which holds the pixels' address for the length of one fit, so that
/// each read is a few multiplications and four loads, inlined into the loop that takes it.
struct GrayLevels {
    let width: Int
    let height: Int
    private let bytesPerRow: Int
    private let pixels: [UInt8]
    /// The image, for the steps across a side, read by the imaging library.
    private let buffer: PixelBuffer

    /// The levels of `buffer`, a gray image.
    init(_ buffer: PixelBuffer) {
        precondition(buffer.format == .gray, "GrayLevels reads gray images")
        (width, height, bytesPerRow, pixels) = (buffer.width, buffer.height, buffer.bytesPerRow, buffer.bytes)
        self.buffer = buffer
    }

    /// For each of `bases` on a side, the steps across it: the ``Sampler/profile(at:along:)`` at
    /// `base + across × offset` for each of `offsets` (half a pixel apart), and for each offset but the first
    /// and last two, the step over two pixels centred there (the profile two pixels on less two pixels
    /// back); `offsets.count - 4` steps for each base, one base after another.
    ///
    /// Fitting a side and finding its outer edge near a corner both read these. In one call to the imaging
    /// library per side (``PixelBuffer/profileSteps(at:across:along:offsets:)``) rather than level by level
    /// through a ``Sampler``, the same values took 37 % less time to fit and refine the candidates of the
    /// MIDV-500 frame 14_deu_id_new-7.
    func steps(at bases: [SIMD2<Double>], across: SIMD2<Double>, along: SIMD2<Double>, offsets: [Double]) throws -> [Double] {
        try buffer.profileSteps(at: bases, across: across, along: along, offsets: offsets)
    }

    /// The result of `body`, given a sampler of these levels that is valid only while it runs.
    @inline(__always)
    func withSampler<Result>(_ body: (Sampler) throws -> Result) rethrows -> Result {
        try pixels.withUnsafeBufferPointer { levels in
            try body(Sampler(levels: levels.baseAddress!, width: width, height: height, bytesPerRow: bytesPerRow))
        }
    }

    /// Reads the levels of a ``GrayLevels`` while its ``GrayLevels/withSampler(_:)`` runs.
    struct Sampler {
        fileprivate let levels: UnsafePointer<UInt8>
        fileprivate let width: Int
        fileprivate let height: Int
        fileprivate let bytesPerRow: Int

        /// The level at (`x`, `y`), interpolated between the four nearest pixels; points outside the
        /// image read its nearest edge.
        @inline(__always)
        func intensity(x: Double, y: Double) -> Double {
            let x = min(max(x, 0), Double(width &- 1)), y = min(max(y, 0), Double(height &- 1))
            let left = Int(x), top = Int(y)
            let right = min(left &+ 1, width &- 1), bottom = min(top &+ 1, height &- 1)
            let fx = x - Double(left), fy = y - Double(top)
            let upperRow = levels + top &* bytesPerRow, lowerRow = levels + bottom &* bytesPerRow
            let upper = Double(upperRow[left]) * (1 - fx) + Double(upperRow[right]) * fx
            let lower = Double(lowerRow[left]) * (1 - fx) + Double(lowerRow[right]) * fx
            return upper * (1 - fy) + lower * fy
        }

        /// The mean of three levels along a side, at `point` and a pixel before and after it in the
        /// direction `along`: smoother without blurring across the side.
        @inline(__always)
        func profile(at point: SIMD2<Double>, along: SIMD2<Double>) -> Double {
            (intensity(x: point.x - along.x, y: point.y - along.y) + intensity(x: point.x, y: point.y)
                + intensity(x: point.x + along.x, y: point.y + along.y)) / 3
        }
    }
}
