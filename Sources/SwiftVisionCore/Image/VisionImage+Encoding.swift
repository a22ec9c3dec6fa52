import CVisionShim
import Foundation

/// A file format to write images in.
public enum ImageEncoding: Sendable, Equatable {
    /// PNG: lossless.
    case png
    /// JPEG with quality 0–100.
    case jpeg(quality: Int)

    /// The encoding a file name's extension asks for (`.png`, `.jpg`, `.jpeg`), or nil.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg(quality: 92)
        default: return nil
        }
    }
}

extension VisionImage {
    /// The upright image encoded as PNG or JPEG.
    public func encoded(as encoding: ImageEncoding) throws -> Data {
        switch encoding {
        case .png: try encoded(fileExtension: ".png", quality: 0)
        case .jpeg(let quality): try encoded(fileExtension: ".jpg", quality: min(max(quality, 0), 100))
        }
    }

    /// The upright image in the OpenCV encoder chosen by `fileExtension` (".png", ".jpg", ".webp", ".bmp", ".tiff").
    func encoded(fileExtension: String, quality: Int) throws -> Data {
        var pixels = try upright().buffer
        switch (fileExtension, pixels.format) {
        case (_, .bgr), (_, .gray), (".png", .bgra): break
        default: pixels = try pixels.converted(to: .bgr)
        }
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        try pixels.withView { view in try shimCall { sv_encode(view, fileExtension, Int32(quality), &output, &length) } }
        defer { sv_free(output) }
        return Data(bytes: output!, count: length)
    }

    /// Writes the upright image to `url`, as PNG or JPEG by its extension.
    public func write(to url: URL) throws {
        guard let encoding = ImageEncoding(pathExtension: url.pathExtension) else {
            throw ImageError.processingFailed("cannot tell the format for \(url.lastPathComponent): use .png, .jpg or .jpeg")
        }
        do {
            try encoded(as: encoding).write(to: url, options: .atomic)
        } catch let error as ImageError {
            throw error
        } catch {
            throw ImageError.unwritableFile(path: url.path, reason: error.localizedDescription)
        }
    }
}
