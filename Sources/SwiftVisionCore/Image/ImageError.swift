import Foundation

/// Why an image could not be read, built or processed.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    case unreadableFile(path: String, reason: String)
    case emptyData
    case unknownFormat
    case truncated(ImageFormat)
    case corrupt(ImageFormat, reason: String)
    case invalidDimensions(width: Int, height: Int)
    case tooLarge(width: Int, height: Int, maximumPixelCount: Int)
    case invalidBuffer(String)
    case invalidRegion(String)
    case processingFailed(String)

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

    public var errorDescription: String? { description }
}
