/// Bounds that protect against images too large to process; checked before any pixel memory is allocated.
public struct ImageLimits: Sendable, Equatable {
    /// The largest accepted width × height.
    public var maximumPixelCount: Int

    /// 100 megapixels: above any camera sensor sold today, below what would exhaust memory on a small machine.
    public static let `default` = ImageLimits(maximumPixelCount: 100_000_000)

    /// Limits of at most `maximumPixelCount` pixels per image. Decoding stops at 2²⁷ pixels whatever the
    /// limit (OpenCV's `OPENCV_IO_MAX_IMAGE_PIXELS`, which SwiftVision sets unless it is already set).
    public init(maximumPixelCount: Int) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// Throws unless a `width`×`height` image is within the limits.
    public func check(width: Int, height: Int) throws {
        guard width > 0, height > 0 else {
            throw ImageError.invalidDimensions(width: width, height: height)
        }
        guard width.multipliedReportingOverflow(by: height).partialValue <= maximumPixelCount,
            width <= maximumPixelCount, height <= maximumPixelCount
        else {
            throw ImageError.tooLarge(width: width, height: height, maximumPixelCount: maximumPixelCount)
        }
    }
}
