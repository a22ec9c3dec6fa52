/// Encoded image file formats SwiftVision reads.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, png, webp, bmp, tiff
}
