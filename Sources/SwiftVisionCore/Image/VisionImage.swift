import Foundation

/// An image to analyse: pixels as stored plus the orientation that makes them upright,
/// as ML Kit's `VisionImage` and MediaPipe's `MPImage`.
///
/// Every analysis reports coordinates in the upright image (orientation applied, origin at the
/// top left). A value type that copies on write, safe to share between threads.
public struct VisionImage: Sendable, Equatable {
    /// The pixels as stored, before orientation.
    public internal(set) var buffer: PixelBuffer
    /// How the stored pixels must be turned to appear upright.
    public var orientation: ImageOrientation
    /// The format of the file the image was decoded from, if any.
    public private(set) var sourceFormat: ImageFormat?

    /// An image of `buffer`, shown in `orientation`.
    public init(buffer: PixelBuffer, orientation: ImageOrientation = .up) {
        self.buffer = buffer
        self.orientation = orientation
    }

    init(buffer: PixelBuffer, orientation: ImageOrientation, sourceFormat: ImageFormat?) {
        self.init(buffer: buffer, orientation: orientation)
        self.sourceFormat = sourceFormat
    }

    /// Copies raw interleaved pixels, honouring the row stride `bytesPerRow`.
    public init(
        pixels: Data, width: Int, height: Int, bytesPerRow: Int? = nil, format: PixelFormat,
        orientation: ImageOrientation = .up, limits: ImageLimits = .default
    ) throws {
        let buffer = try PixelBuffer(
            format: format, width: width, height: height, bytesPerRow: bytesPerRow, bytes: [UInt8](pixels),
            limits: limits)
        self.init(buffer: buffer, orientation: orientation)
    }

    /// Upright width in pixels.
    public var width: Int { orientation.swapsDimensions ? buffer.height : buffer.width }
    /// Upright height in pixels.
    public var height: Int { orientation.swapsDimensions ? buffer.width : buffer.height }
    /// Upright size in pixels.
    public var size: CGSize { CGSize(width: width, height: height) }
}
