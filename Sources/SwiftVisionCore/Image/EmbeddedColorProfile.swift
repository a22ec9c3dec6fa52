import CVisionShim
import Foundation

/// The ICC colour profile an encoded image carries, which decoding matches to sRGB (see
/// ``VisionImage/init(data:options:)``): a phone's Display P3 photo, a camera's or editor's Adobe RGB. Where a
/// profile is kept:
/// - JPEG: APP2 segments "ICC_PROFILE", numbered chunks that together make the profile (ICC.1, annex B.4);
/// - PNG: the `iCCP` chunk, zlib-compressed after the profile's name;
/// - WebP: the `ICCP` chunk, flagged in `VP8X`;
/// - TIFF: tag 34675 of the first image directory;
/// - HEIF and AVIF: the `colr` box, which the shim reads with libheif and applies as it decodes (heif.cpp).
/// A profile that is missing, damaged, split into chunks that do not add up, or larger than
/// ``maximumSize`` is no profile: the image decodes as it did before profiles were read.
enum EmbeddedColorProfile {
    /// The largest profile read: 4 MB, many times a camera's or a phone's (Display P3: 536 bytes; the largest
    /// lookup-table printer profiles reach 2–3 MB).
    static let maximumSize = 4 << 20

    /// The profile's bytes in encoded image `data` of `format`, or nil.
    static func bytes(in data: Data, format: ImageFormat) -> Data? {
        let bytes = ByteReader(data)
        let profile: Data? =
            switch format {
            case .jpeg: jpegProfile(bytes)
            case .png: pngProfile(bytes)
            case .webp: ImageHeader.webPChunk("ICCP", flag: 0x20, in: bytes).flatMap { bytes.data(in: $0) }
            case .tiff: (try? TIFFTags(bytes, tiffStart: 0, wanted: [34675]))?.undefinedBytes[34675].flatMap { bytes.data(in: $0) }
            case .bmp, .heif, .avif, .gif, .netpbm, .jpeg2000: nil
            }
        // An ICC profile's header is 128 bytes, its tag count 4 more.
        guard let profile, (132...maximumSize).contains(profile.count) else { return nil }
        return profile
    }

    /// The APP2 chunks of a JPEG's profile, joined in their numbered order; nil unless chunks 1 to N are each
    /// there once, all with the same N.
    private static func jpegProfile(_ bytes: ByteReader) -> Data? {
        let signature = Array("ICC_PROFILE".utf8) + [0]
        var chunks: [Int: Range<Int>] = [:]
        var total: Int?
        var offset = 2
        // The segments before the first scan, walked as ImageHeader walks them.
        while let (marker, start) = ImageHeader.nextJPEGSegment(in: bytes, from: offset), marker != 0xDA, marker != 0xD9 {
            offset = start
            guard let length = bytes.uint16(at: offset + 2, bigEndian: true), length >= 2 else { return nil }
            let segment = offset + 4, end = offset + 2 + Int(length)
            if marker == 0xE2, bytes.matches(signature, at: segment), let number = bytes.uint8(at: segment + 12),
                let count = bytes.uint8(at: segment + 13), segment + 14 <= end, end <= bytes.count
            {
                guard number >= 1, number <= count, total == nil || total == Int(count), chunks[Int(number)] == nil else { return nil }
                total = Int(count)
                chunks[Int(number)] = segment + 14..<end
            }
            offset = end
        }
        guard let total, chunks.count == total, chunks.values.reduce(0, { $0 + $1.count }) <= maximumSize else { return nil }
        var profile = Data()
        for number in 1...total {
            guard let chunk = chunks[number], let part = bytes.data(in: chunk) else { return nil }
            profile.append(part)
        }
        return profile
    }

    /// A PNG's `iCCP` chunk before the image data, inflated: a name of 1 to 79 bytes, a zero byte, the
    /// compression method (0, zlib) and the compressed profile.
    private static func pngProfile(_ bytes: ByteReader) -> Data? {
        guard let chunk = PNGChunk.chunks(in: bytes).first(where: { $0.type == "iCCP" }),
            let nameEnd = bytes.offset(of: 0, from: chunk.payload.lowerBound), nameEnd < chunk.payload.upperBound - 1,
            (1...79).contains(nameEnd - chunk.payload.lowerBound), bytes.uint8(at: nameEnd + 1) == 0,
            let compressed = bytes.data(in: nameEnd + 2..<chunk.payload.upperBound)
        else { return nil }
        var profile = Data(count: maximumSize)
        let length = profile.withUnsafeMutableBytes { output in
            compressed.withUnsafeBytes { input in
                sv_inflate(
                    input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
                    output.baseAddress!.assumingMemoryBound(to: UInt8.self), output.count)
            }
        }
        guard length > 0 else { return nil }
        profile.count = Int(length)
        return profile
    }
}
