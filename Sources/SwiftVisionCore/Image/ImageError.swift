import Foundation

/// Why an image could not be read, built or processed.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file at `path` could not be read (or, when encoding, written).
    case unreadableFile(path: String, reason: String)
    /// The data holds no bytes.
    case emptyData
    /// The data is not a JPEG, PNG, WebP, BMP or TIFF image.
    case unknownFormat
    /// The data ends before the image does.
    case truncated(ImageFormat)
    /// The data's header or contents are broken.
    case corrupt(ImageFormat, reason: String)
    /// A width or height is not positive.
    case invalidDimensions(width: Int, height: Int)
    /// The image has more pixels than ``ImageLimits/maximumPixelCount`` allows.
    case tooLarge(width: Int, height: Int, maximumPixelCount: Int)
    /// Pixel bytes do not match their format, size or row length.
    case invalidBuffer(String)
    /// A region or quadrilateral is empty, degenerate or outside the image.
    case invalidRegion(String)
    /// OpenCV or another image operation failed.
    case processingFailed(String)

    /// A one-line explanation of the error.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): "cannot read image file \(path): \(reason)"
        case .emptyData: "the image data is empty"
        case .unknownFormat: "the data is not an image in a supported format (JPEG, PNG, WebP, BMP, TIFF)"
        case .truncated(let format): "the \(format.rawValue.uppercased()) data is truncated"
        case .corrupt(let format, let reason): "the \(format.rawValue.uppercased()) data is corrupt: \(reason)"
        case .invalidDimensions(let width, let height): "invalid image dimensions \(width)×\(height)"
        case .tooLarge(let width, let height, let limit):
            "the image is \(width)×\(height) pixels, above the limit of \(limit) pixels (ImageLimits)"
        case .invalidBuffer(let reason): "invalid pixel buffer: \(reason)"
        case .invalidRegion(let reason): "invalid region: \(reason)"
        case .processingFailed(let reason): "image processing failed: \(reason)"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
