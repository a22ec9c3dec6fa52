import CVisionShim
import Foundation

/// One channel of 32-bit floats, row after row without padding: a confidence mask, for instance, in
/// upright pixels with the origin at the top left.
public struct FloatPlane: Sendable, Equatable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// `width` × `height` values, row after row.
    public internal(set) var values: [Float]

    /// A plane of `values`, which must hold `width` × `height` values.
    public init(width: Int, height: Int, values: [Float]) throws {
        guard width > 0, height > 0 else { throw ImageError.invalidDimensions(width: width, height: height) }
        guard values.count == width * height else {
            throw ImageError.invalidBuffer("\(values.count) values cannot fill \(width)×\(height) pixels")
        }
        self.width = width
        self.height = height
        self.values = values
    }

    /// A `width` × `height` plane of `value`.
    public init(width: Int, height: Int, repeating value: Float) throws {
        try self.init(width: width, height: height, values: [Float](repeating: value, count: max(0, width * height)))
    }

    /// An 8-bit gray buffer read as 0…1 (value / 255).
    public init(gray: PixelBuffer) throws {
        let source = try gray.format == .gray ? gray : gray.converted(to: .gray)
        var values = [Float](repeating: 0, count: source.width * source.height)
        try values.withUnsafeMutableBytes { raw in
            let destination = SVImageView(
                base: raw.baseAddress!, width: source.width, height: source.height, bytesPerRow: source.width * 4, channels: 1,
                depth: SV_DEPTH_F32)
            try source.withView { view in try shimCall { sv_convert_scale(view, destination, 1.0 / 255, 0) } }
        }
        try self.init(width: source.width, height: source.height, values: values)
    }

    /// The value at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Float {
        values[y * width + x]
    }

    /// The plane scaled to `width` × `height` by bilinear interpolation with pixel centres aligned
    /// (OpenCV's `INTER_LINEAR`, as MediaPipe scales masks and tensors back to the image).
    public func resized(width: Int, height: Int) throws -> FloatPlane {
        guard width != self.width || height != self.height else { return self }
        guard width > 0, height > 0 else { throw ImageError.invalidDimensions(width: width, height: height) }
        var result = [Float](repeating: 0, count: width * height)
        try result.withUnsafeMutableBytes { raw in
            let destination = SVImageView(
                base: raw.baseAddress!, width: width, height: height, bytesPerRow: width * 4, channels: 1, depth: SV_DEPTH_F32)
            try withView { source in try shimCall { sv_resize(source, destination, SV_INTER_LINEAR) } }
        }
        return try FloatPlane(width: width, height: height, values: result)
    }

    /// Every value times `factor`.
    public func scaled(by factor: Float) throws -> FloatPlane {
        var result = [Float](repeating: 0, count: values.count)
        try result.withUnsafeMutableBytes { raw in
            let destination = SVImageView(
                base: raw.baseAddress!, width: width, height: height, bytesPerRow: width * 4, channels: 1, depth: SV_DEPTH_F32)
            try withView { source in try shimCall { sv_convert_scale(source, destination, Double(factor), 0) } }
        }
        return try FloatPlane(width: width, height: height, values: result)
    }

    /// The values 0…1 as an 8-bit gray buffer: round(value × 255), values outside 0…1 saturated.
    public func grayBuffer() throws -> PixelBuffer {
        try PixelBuffer.make(format: .gray, width: width, height: height) { destination in
            try withView { source in try shimCall { sv_convert_scale(source, destination, 255, 0) } }
        }
    }

    /// The fraction of values at or above `threshold`.
    public func fraction(atLeast threshold: Float) -> Double {
        let count = values.withUnsafeBufferPointer { values in
            var count = 0
            for value in values where value >= threshold { count += 1 }
            return count
        }
        return Double(count) / Double(values.count)
    }

    /// Calls `body` with a read-only view of the values.
    func withView<Result>(_ body: (SVImageView) throws -> Result) rethrows -> Result {
        try values.withUnsafeBytes { raw in
            try body(
                SVImageView(
                    base: UnsafeMutableRawPointer(mutating: raw.baseAddress!), width: width, height: height,
                    bytesPerRow: width * 4, channels: 1, depth: SV_DEPTH_F32))
        }
    }
}
