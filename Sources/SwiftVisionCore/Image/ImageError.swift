import Foundation

/// Why an image could not be read, built or processed.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file at `path` could not be read.
    case unreadableFile(path: String, reason: String)
    /// The image could not be written to the file at `path`.
    case unwritableFile(path: String, reason: String)
    /// The data holds no bytes.
    case emptyData
    /// The data is not in any of the formats of ``ImageFormat``.
    case unknownFormat
    /// The data is in a format that is recognised but not read: a sound file, or an image format outside
    /// ``ImageFormat``.
    case unsupportedFormat(UnsupportedFormat)
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
        case .unwritableFile(let path, let reason): "cannot write image file \(path): \(reason)"
        case .emptyData: "the image data is empty"
        case .unknownFormat: "the data is not an image in a supported format (JPEG, PNG, WebP, BMP, TIFF, HEIF/HEIC, AVIF, GIF, Netpbm, JPEG 2000)"
        case .unsupportedFormat(let format): "unsupported format: \(format.explanation)"
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

extension ImageError {
    /// The bytes of the file at `url`, or ``unreadableFile(path:reason:)`` saying why they cannot be read.
    package static func contents(of url: URL) throws -> Data {
        try contents(atPath: url.path)
    }

    /// The bytes of the file at `path`, read with the system's calls (so that a one-image run such as
    /// `swiftvision info` maps none of Foundation's URL and file-reading code), or
    /// ``unreadableFile(path:reason:)`` saying why they cannot be read.
    package static func contents(atPath path: String) throws -> Data {
        func failure(_ reason: String) -> ImageError { .unreadableFile(path: path, reason: reason) }
        func systemReason() -> String { FileReadability.systemReason(errno) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(systemReason()) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(systemReason()) }
        if let problem = FileReadability.problem(with: status) { throw failure(problem) }
        // A regular file is read to the size it has; anything else (a pipe) to its end, in growing steps.
        let isRegular = status.st_mode & S_IFMT == S_IFREG
        var data = Data(count: isRegular ? max(Int(status.st_size), 0) : 65536)
        var length = 0
        while true {
            if length == data.count {
                if isRegular { break }
                data.count *= 2
            }
            let count = data.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + length, $0.count - length) }
            if count > 0 {
                length += count
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw failure(systemReason())
            }
        }
        data.count = length
        return data
    }
}
