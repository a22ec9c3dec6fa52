import CVisionShim
import Foundation

/// Options for decoding encoded images.
public struct ImageDecodingOptions: Sendable, Equatable {
    /// Images above these bounds are refused before their pixels are allocated.
    public var limits: ImageLimits
    /// When set, the decoder may shrink the image by 2, 4 or 8 (JPEG's reduced-size modes) as long as
    /// the upright result still covers this size; the coordinates of results then refer to the smaller image.
    public var minimumSize: CGSize?

    /// Options with `limits` that decode at full size unless `minimumSize` is given.
    public init(limits: ImageLimits = .default, minimumSize: CGSize? = nil) {
        self.limits = limits
        self.minimumSize = minimumSize
    }
}

extension VisionImage {
    /// Decodes a JPEG, PNG, WebP, BMP, TIFF, HEIF, AVIF or GIF file; its EXIF orientation (see ``ImageHeader/orientation``)
    /// becomes ``orientation``.
    public init(contentsOf url: URL, options: ImageDecodingOptions = .init()) throws {
        try self.init(data: try ImageError.contents(of: url), options: options)
    }

    /// Decodes the file at `path`.
    public init(contentsOfFile path: String, options: ImageDecodingOptions = .init()) throws {
        try self.init(contentsOf: URL(fileURLWithPath: path), options: options)
    }

    /// Decodes encoded image `data`.
    public init(data: Data, options: ImageDecodingOptions = .init()) throws {
        let header = try ImageHeader(data: data)
        try options.limits.check(width: header.width, height: header.height)
        let data = DecoderMetadata.removed(from: data, format: header.format)
        let reduction = Self.reduction(for: header, minimumSize: options.minimumSize)
        var size = (width: (header.width + reduction - 1) / reduction, height: (header.height + reduction - 1) / reduction)
        var pixels: PixelBuffer?
        // The header predicts the decoded size; a second pass handles the rare decoder that disagrees.
        for _ in 0..<2 where pixels == nil {
            // The decoders write every pixel when they succeed, so the buffer is not zeroed first (for a
            // 12-megapixel photo that is 36 MB written for nothing).
            let (buffer, status) = PixelBuffer.filled(format: .bgr, width: size.width, height: size.height) { view in
                var width: Int32 = 0
                var height: Int32 = 0
                let status = data.withUnsafeBytes { encoded in
                    sv_decode(
                        encoded.baseAddress!.assumingMemoryBound(to: UInt8.self), encoded.count, Int32(reduction), view,
                        &width, &height)
                }
                if status == 1 { size = (Int(width), Int(height)) }
                return status
            }
            switch status {
            case 0: pixels = buffer
            case 1: try options.limits.check(width: size.width, height: size.height)
            default: throw ImageError.corrupt(header.format, reason: String(cString: sv_last_error()))
            }
        }
        guard var pixels else { throw ImageError.corrupt(header.format, reason: "the decoded size keeps changing") }
        if header.format == .netpbm, ByteReader(data).matches(Array("P7".utf8), at: 0) {
            // OpenCV 4.6 gives a PAM's RGB tuples in RGB order where its other decoders give BGR (Pillow's
            // and ImageMagick's decodes of the same file agree with the written pixels): put them right.
            for index in stride(from: 0, to: pixels.bytes.count - 2, by: 3) { pixels.bytes.swapAt(index, index + 2) }
        }
        self.init(buffer: pixels, orientation: header.orientation, sourceFormat: header.format)
    }

    /// The largest JPEG scale-down (1, 2, 4 or 8) whose upright result still covers `minimumSize`.
    private static func reduction(for header: ImageHeader, minimumSize: CGSize?) -> Int {
        guard header.format == .jpeg, let minimumSize else { return 1 }
        let (width, height) =
            header.orientation.swapsDimensions ? (header.height, header.width) : (header.width, header.height)
        return [8, 4, 2].first {
            Double(width / $0) >= minimumSize.width && Double(height / $0) >= minimumSize.height
        } ?? 1
    }
}
