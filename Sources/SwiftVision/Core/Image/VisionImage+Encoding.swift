import CVisionShim
import Foundation

/// A file format to write images in.
public enum ImageEncoding: Sendable, Equatable {
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
        let upright = try upright()
        var pixels = upright.buffer
        switch (encoding, pixels.format) {
        case (_, .bgr), (_, .gray), (.png, .bgra): break
        default: pixels = try pixels.converted(to: .bgr)
        }
        let (fileExtension, quality): (String, Int) =
            switch encoding {
            case .png: (".png", 0)
            case .jpeg(let quality): (".jpg", min(max(quality, 0), 100))
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
            throw ImageError.unreadableFile(path: url.path, reason: "cannot write: \(error.localizedDescription)")
        }
    }
}
