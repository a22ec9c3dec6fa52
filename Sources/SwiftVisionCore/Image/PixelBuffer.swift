import Foundation

/// Pixels in memory: a value type that copies on write, safe to share between threads.
///
/// Rows are `bytesPerRow` apart. For ``PixelFormat/nv12`` the chroma plane follows the
/// luma plane, `height / 2` rows of the same `bytesPerRow`.
public struct PixelBuffer: Sendable, Equatable {
    /// The layout of each pixel.
    public let format: PixelFormat
    /// The width in pixels.
    public let width: Int
    /// The height in pixels (of the luma plane, for NV12).
    public let height: Int
    /// The distance in bytes from the start of one row to the start of the next.
    public let bytesPerRow: Int
    /// The raw bytes, all planes.
    public internal(set) var bytes: [UInt8]

    /// Wraps `bytes` after checking that they hold `height` rows of `bytesPerRow`.
    public init(
        format: PixelFormat, width: Int, height: Int, bytesPerRow: Int? = nil, bytes: [UInt8],
        limits: ImageLimits = .default
    ) throws {
        try limits.check(width: width, height: height)
        let stride = bytesPerRow ?? width * format.channelCount
        guard stride >= width * format.channelCount else {
            throw ImageError.invalidBuffer("bytesPerRow \(stride) is less than width × \(format.channelCount) bytes")
        }
        if format == .nv12, !width.isMultiple(of: 2) || !height.isMultiple(of: 2) {
            throw ImageError.invalidBuffer("NV12 needs an even width and height, got \(width)×\(height)")
        }
        let rows = format.rows(forHeight: height)
        let needed = stride * (rows - 1) + width * format.channelCount
        guard bytes.count >= needed else {
            throw ImageError.invalidBuffer("\(bytes.count) bytes cannot hold \(rows) rows of \(stride) bytes")
        }
        self.format = format
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.bytes = bytes
    }

    /// A zero-filled, tightly packed buffer.
    init(zeroedFormat format: PixelFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.bytesPerRow = width * format.channelCount
        self.bytes = [UInt8](repeating: 0, count: bytesPerRow * format.rows(forHeight: height))
    }

    /// Copies an NV12 frame given as two planes with their own row strides.
    public init(
        nv12Luma luma: Data, lumaBytesPerRow: Int, chroma: Data, chromaBytesPerRow: Int, width: Int, height: Int,
        limits: ImageLimits = .default
    ) throws {
        try limits.check(width: width, height: height)
        guard width.isMultiple(of: 2), height.isMultiple(of: 2) else {
            throw ImageError.invalidBuffer("NV12 needs an even width and height, got \(width)×\(height)")
        }
        guard lumaBytesPerRow >= width, chromaBytesPerRow >= width,
            luma.count >= lumaBytesPerRow * (height - 1) + width,
            chroma.count >= chromaBytesPerRow * (height / 2 - 1) + width
        else {
            throw ImageError.invalidBuffer("NV12 planes are too small for \(width)×\(height)")
        }
        var packed = [UInt8](repeating: 0, count: width * PixelFormat.nv12.rows(forHeight: height))
        packed.withUnsafeMutableBytes { target in
            luma.withUnsafeBytes { source in
                for row in 0..<height {
                    target.baseAddress!.advanced(by: row * width)
                        .copyMemory(from: source.baseAddress!.advanced(by: row * lumaBytesPerRow), byteCount: width)
                }
            }
            chroma.withUnsafeBytes { source in
                for row in 0..<height / 2 {
                    target.baseAddress!.advanced(by: (height + row) * width)
                        .copyMemory(from: source.baseAddress!.advanced(by: row * chromaBytesPerRow), byteCount: width)
                }
            }
        }
        try self.init(format: .nv12, width: width, height: height, bytes: packed)
    }
}
