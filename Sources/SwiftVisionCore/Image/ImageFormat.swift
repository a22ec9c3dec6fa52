/// Encoded image file formats SwiftVision reads.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    /// JPEG, PNG, WebP, BMP and TIFF, named by their usual file extensions.
    case jpeg, png, webp, bmp, tiff
    /// HEIF with HEVC images (HEIC, as iPhones write photos), read through libheif.
    case heif
    /// AVIF: HEIF with AV1 images, read through libheif.
    case avif
    /// GIF, its first image, read through leptonica.
    case gif
    /// Netpbm's PBM, PGM, PPM (plain and raw) and PAM, read through OpenCV.
    case netpbm
    /// JPEG 2000, a JP2 file or a bare codestream, read through OpenCV's OpenJPEG decoder.
    case jpeg2000
}
