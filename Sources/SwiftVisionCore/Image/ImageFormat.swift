/// Encoded image file formats SwiftVision reads.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    /// JPEG, PNG, WebP, BMP and TIFF, named by their usual file extensions.
    case jpeg, png, webp, bmp, tiff
}
