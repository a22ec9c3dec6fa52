/// The memory layout of raw pixels.
public enum PixelFormat: String, Sendable, CaseIterable, Codable {
    /// 8-bit blue, green, red, alpha (Core Video's `kCVPixelFormatType_32BGRA`).
    case bgra
    /// 8-bit red, green, blue, alpha.
    case rgba
    /// 8-bit red, green, blue.
    case rgb
    /// 8-bit blue, green, red: what decoded files hold.
    case bgr
    /// 8-bit luminance.
    case gray
    /// Bi-planar 4:2:0 YUV: a full-size luma plane followed by a half-size interleaved CbCr plane.
    case nv12

    /// Interleaved channels per pixel (of the luma plane for NV12).
    public var channelCount: Int {
        switch self {
        case .bgra, .rgba: 4
        case .rgb, .bgr: 3
        case .gray, .nv12: 1
        }
    }

    /// The rows of bytes that `height` rows of pixels take: for NV12, the luma rows and half as many chroma rows.
    func rows(forHeight height: Int) -> Int {
        self == .nv12 ? height * 3 / 2 : height
    }
}
