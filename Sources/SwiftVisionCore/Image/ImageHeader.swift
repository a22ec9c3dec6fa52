import CVisionShim
import Foundation

/// What an encoded image's header says, read without decoding pixels.
public struct ImageHeader: Sendable, Equatable {
    /// The encoded format.
    public let format: ImageFormat
    /// Stored width, before orientation.
    public let width: Int
    /// Stored height, before orientation.
    public let height: Int
    /// The EXIF orientation: a JPEG's APP1 segment, a PNG's `eXIf` chunk, a WebP's `EXIF` chunk or a TIFF's
    /// tag 274; `.up` for BMP and GIF, or when absent or malformed. HEIF and AVIF are `.up` with the upright size:
    /// their rotation, mirroring and crop boxes are applied by the decoder (as the format requires, and as
    /// iOS does), and their EXIF orientation is informative only.
    public let orientation: ImageOrientation

    /// Parses the header of encoded image `data`.
    public init(data: Data) throws {
        guard !data.isEmpty else { throw ImageError.emptyData }
        let bytes = ByteReader(data)
        if bytes.matches([0xFF, 0xD8, 0xFF], at: 0) {
            (width, height, orientation) = try Self.parseJPEG(bytes)
            format = .jpeg
        } else if bytes.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0) {
            (width, height) = try Self.parsePNG(bytes)
            (format, orientation) = (.png, Self.pngOrientation(bytes))
        } else if bytes.matches(Array("RIFF".utf8), at: 0), bytes.matches(Array("WEBP".utf8), at: 8) {
            (width, height) = try Self.parseWebP(bytes)
            (format, orientation) = (.webp, Self.webPOrientation(bytes))
        } else if bytes.matches(Array("BM".utf8), at: 0) {
            (width, height) = try Self.parseBMP(bytes)
            (format, orientation) = (.bmp, .up)
        } else if bytes.matches([0x49, 0x49, 0x2A, 0x00], at: 0) || bytes.matches([0x4D, 0x4D, 0x00, 0x2A], at: 0) {
            let tags = try TIFFTags(bytes, tiffStart: 0, wanted: [256, 257, 274, 339])
            // SampleFormat 3: IEEE floating point, which OpenCV 4.6's TIFF reader refuses.
            if tags.values[339] == 3 { throw ImageError.unsupportedFormat(.floatTIFF) }
            guard let width = tags.values[256], let height = tags.values[257] else {
                throw ImageError.corrupt(.tiff, reason: "no image width or length tag")
            }
            (self.width, self.height) = (width, height)
            (format, orientation) = (.tiff, Self.orientation(tagValue: tags.values[274]))
        } else if bytes.matches(Array("GIF87a".utf8), at: 0) || bytes.matches(Array("GIF89a".utf8), at: 0) {
            // The logical screen's size; the first image's, where it differs, comes from the decoder.
            guard let width = bytes.uint16(at: 6, bigEndian: false), let height = bytes.uint16(at: 8, bigEndian: false) else {
                throw ImageError.truncated(.gif)
            }
            (self.width, self.height) = (Int(width), Int(height))
            (format, orientation) = (.gif, .up)
        } else if let format = Self.heifFormat(data) {
            (width, height) = try Self.parseHEIF(data, format: format)
            (self.format, orientation) = (format, .up)
        } else if Self.isNetpbm(bytes) {
            (width, height) = try Self.parseNetpbm(bytes)
            (format, orientation) = (.netpbm, .up)
        } else if Self.isJPEG2000(bytes) {
            (width, height) = try Self.parseJPEG2000(bytes)
            (format, orientation) = (.jpeg2000, .up)
        } else if let unsupported = UnsupportedFormat(data: data) {
            throw ImageError.unsupportedFormat(unsupported)
        } else {
            throw ImageError.unknownFormat
        }
        guard width > 0, height > 0 else {
            throw ImageError.corrupt(format, reason: "the header gives a size of \(width)×\(height)")
        }
    }

    private static func parseJPEG(_ bytes: ByteReader) throws -> (Int, Int, ImageOrientation) {
        var offset = 2
        var orientation = ImageOrientation.up
        // Read as libjpeg reads it, so that both find the same frame header: bytes between segments
        // are skipped, and the markers that stand alone (TEM, RSTn, SOI) carry no length.
        while true {
            guard let byte = bytes.uint8(at: offset), let marker = bytes.uint8(at: offset + 1) else {
                throw ImageError.truncated(.jpeg)
            }
            if byte != 0xFF || marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0x01 || (0xD0...0xD8).contains(marker) {
                offset += 2
                continue
            }
            guard let length = bytes.uint16(at: offset + 2, bigEndian: true), length >= 2 else {
                throw ImageError.truncated(.jpeg)
            }
            let segment = offset + 4
            switch marker {
            case 0xE1 where bytes.matches(Array("Exif".utf8) + [0, 0], at: segment):
                orientation = Self.orientation(inTIFF: bytes.slice(from: segment + 6, to: offset + 2 + Int(length)))
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard let height = bytes.uint16(at: segment + 1, bigEndian: true),
                    let width = bytes.uint16(at: segment + 3, bigEndian: true)
                else { throw ImageError.truncated(.jpeg) }
                guard Self.jpegEnds(bytes, from: offset) else { throw ImageError.truncated(.jpeg) }
                return (Int(width), Int(height), orientation)
            case 0xD9, 0xDA:
                throw ImageError.corrupt(.jpeg, reason: "no frame header before the image data")
            default:
                break
            }
            offset += 2 + Int(length)
        }
    }

    /// Whether the JPEG's image ends with its EOI marker, looked for from `offset` (the frame header) on.
    /// Entropy-coded data holds no EOI (an 0xFF there is followed by a stuffed 0x00 or a restart marker,
    /// ITU-T T.81, B.1.1.2); a segment (tables, comments) is stepped over by its length where that leads to
    /// the next marker or, after a scan header, to the scan's data, so that a damaged scan never steps over
    /// the end. What follows EOI is not read: phones append data there (Samsung's trailer, the video of a
    /// Google or Samsung motion photo, an Ultra HDR gain map).
    private static func jpegEnds(_ bytes: ByteReader, from offset: Int) -> Bool {
        var offset = offset
        while let found = bytes.offset(of: 0xFF, from: offset), let marker = bytes.uint8(at: found + 1) {
            if marker == 0xD9 { return true }
            offset = found + 1
            let isSegment = (0xC0...0xCF).contains(marker) || (0xDA...0xDF).contains(marker) || (0xE0...0xEF).contains(marker) || marker == 0xFE
            guard isSegment, let length = bytes.uint16(at: found + 2, bigEndian: true), length >= 2 else { continue }
            let next = found + 2 + Int(length)
            if next < bytes.count, marker == 0xDA || bytes.uint8(at: next) == 0xFF { offset = next }
        }
        return false
    }

    private static func parsePNG(_ bytes: ByteReader) throws -> (Int, Int) {
        guard bytes.matches(Array("IHDR".utf8), at: 12), let width = bytes.uint32(at: 16, bigEndian: true),
            let height = bytes.uint32(at: 20, bigEndian: true)
        else { throw ImageError.truncated(.png) }
        guard Self.pngEnds(bytes) else { throw ImageError.truncated(.png) }
        return (Int(width), Int(height))
    }

    /// Whether walking the PNG's chunks by their lengths reaches `IEND` within the data; bytes after it
    /// are not read (libpng stops there too).
    private static func pngEnds(_ bytes: ByteReader) -> Bool {
        var start = 8
        while let length = bytes.uint32(at: start, bigEndian: true) {
            let end = start + 12 + Int(length)
            guard end <= bytes.count else { return false }
            if bytes.matches(Array("IEND".utf8), at: start + 4) { return true }
            start = end
        }
        return false
    }

    private static func parseWebP(_ bytes: ByteReader) throws -> (Int, Int) {
        guard let riffSize = bytes.uint32(at: 4, bigEndian: false) else { throw ImageError.truncated(.webp) }
        guard bytes.count >= Int(riffSize) + 8 else { throw ImageError.truncated(.webp) }
        if bytes.matches(Array("VP8 ".utf8), at: 12) {
            guard bytes.matches([0x9D, 0x01, 0x2A], at: 23), let width = bytes.uint16(at: 26, bigEndian: false),
                let height = bytes.uint16(at: 28, bigEndian: false)
            else { throw ImageError.corrupt(.webp, reason: "bad VP8 frame header") }
            return (Int(width & 0x3FFF), Int(height & 0x3FFF))
        }
        if bytes.matches(Array("VP8L".utf8), at: 12) {
            guard bytes.uint8(at: 20) == 0x2F, let bits = bytes.uint32(at: 21, bigEndian: false) else {
                throw ImageError.corrupt(.webp, reason: "bad VP8L header")
            }
            return (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        }
        if bytes.matches(Array("VP8X".utf8), at: 12) {
            guard let width = bytes.uint24(at: 24), let height = bytes.uint24(at: 27) else {
                throw ImageError.truncated(.webp)
            }
            return (width + 1, height + 1)
        }
        throw ImageError.corrupt(.webp, reason: "no VP8, VP8L or VP8X chunk")
    }

    /// HEIF or AVIF when the data opens with a file type box whose brands name one, as the decoder reads
    /// them (`sv_heif_kind`): AVIF when an AV1 brand is there and no HEVC one, else HEIF.
    private static func heifFormat(_ data: Data) -> ImageFormat? {
        let kind = data.withUnsafeBytes { sv_heif_kind($0.baseAddress!.assumingMemoryBound(to: UInt8.self), $0.count) }
        switch kind {
        case Int32(SV_HEIF_HEVC.rawValue): return .heif
        case Int32(SV_HEIF_AV1.rawValue): return .avif
        default: return nil
        }
    }

    /// The upright size of the primary image, as libheif reads the file's boxes (no pixels decoded).
    private static func parseHEIF(_ data: Data, format: ImageFormat) throws -> (Int, Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        let status = data.withUnsafeBytes { bytes in
            sv_heif_size(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, &width, &height)
        }
        guard status == 0 else { throw ImageError.corrupt(format, reason: String(cString: sv_last_error())) }
        return (Int(width), Int(height))
    }

    private static func parseBMP(_ bytes: ByteReader) throws -> (Int, Int) {
        guard let fileSize = bytes.uint32(at: 2, bigEndian: false), let width = bytes.uint32(at: 18, bigEndian: false),
            let height = bytes.uint32(at: 22, bigEndian: false)
        else { throw ImageError.truncated(.bmp) }
        guard bytes.count >= Int(fileSize) else { throw ImageError.truncated(.bmp) }
        return (Int(Int32(bitPattern: width)), abs(Int(Int32(bitPattern: height))))
    }
}

/// Bounds-checked reads from encoded bytes.
struct ByteReader {
    private let data: Data
    init(_ data: Data) { self.data = data }

    var count: Int { data.count }

    func uint8(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < data.count else { return nil }
        return data[data.startIndex + offset]
    }

    /// The bytes from `start` up to `end`, clamped to these; offsets in the slice count from `start`.
    func slice(from start: Int, to end: Int) -> ByteReader {
        let lower = min(max(start, 0), data.count)
        let upper = min(max(end, lower), data.count)
        return ByteReader(data[data.startIndex + lower..<data.startIndex + upper])
    }

    /// The offset of the first `byte` at or after `start`, if any.
    func offset(of byte: UInt8, from start: Int) -> Int? {
        guard start >= 0, start < data.count else { return nil }
        return data.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress, let found = memchr(base + start, Int32(byte), raw.count - start) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }

    func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
        pattern.indices.allSatisfy { uint8(at: offset + $0) == pattern[$0] }
    }

    /// The `size`-byte unsigned number at `offset` (up to 8 bytes); only its low 64 bits are kept, so an 8-byte
    /// value of 2⁶³ or more comes out negative (its bit pattern).
    func unsigned(at offset: Int, size: Int, bigEndian: Bool) -> Int? {
        var value = 0
        for index in 0..<size {
            guard let byte = uint8(at: offset + (bigEndian ? index : size - 1 - index)) else { return nil }
            value = value << 8 | Int(byte)
        }
        return value
    }

    func uint16(at offset: Int, bigEndian: Bool) -> UInt16? {
        unsigned(at: offset, size: 2, bigEndian: bigEndian).map { UInt16($0) }
    }

    func uint24(at offset: Int) -> Int? { unsigned(at: offset, size: 3, bigEndian: false) }

    func uint32(at offset: Int, bigEndian: Bool) -> UInt32? {
        unsigned(at: offset, size: 4, bigEndian: bigEndian).map { UInt32($0) }
    }

    /// The 64-bit number at `offset` as an Int, or Int.max for any value beyond Int's range (2⁶³ and above,
    /// such as the all-ones media time of an empty edit in an ISO base media file).
    func uint64(at offset: Int, bigEndian: Bool) -> Int? {
        // `unsigned` keeps the low 64 bits, so a value of 2⁶³ or more comes out negative.
        unsigned(at: offset, size: 8, bigEndian: bigEndian).map { $0 < 0 ? Int.max : $0 }
    }
}

/// The integer values of chosen tags of a TIFF structure's first image directory (TIFF files and JPEG EXIF).
struct TIFFTags {
    private(set) var values: [UInt16: Int] = [:]
    /// Where each value read sits, from the start of `bytes`, and its size in bytes.
    private(set) var fields: [UInt16: (offset: Int, size: Int)] = [:]
    /// Whether the structure is big-endian ("MM").
    let bigEndian: Bool

    init(_ bytes: ByteReader, tiffStart: Int, wanted: Set<UInt16>) throws {
        if bytes.matches([0x4D, 0x4D], at: tiffStart) {
            bigEndian = true
        } else if bytes.matches([0x49, 0x49], at: tiffStart) {
            bigEndian = false
        } else {
            throw ImageError.corrupt(.tiff, reason: "bad byte-order mark")
        }
        guard let directory = bytes.uint32(at: tiffStart + 4, bigEndian: bigEndian),
            let count = bytes.uint16(at: tiffStart + Int(directory), bigEndian: bigEndian)
        else { throw ImageError.truncated(.tiff) }
        for index in 0..<Int(count) {
            let entry = tiffStart + Int(directory) + 2 + index * 12
            guard let tag = bytes.uint16(at: entry, bigEndian: bigEndian),
                let type = bytes.uint16(at: entry + 2, bigEndian: bigEndian)
            else { throw ImageError.truncated(.tiff) }
            guard wanted.contains(tag) else { continue }
            // SHORT (3) and LONG (4) values of count 1 sit in the entry itself.
            let value: Int? =
                switch type {
                case 3: bytes.uint16(at: entry + 8, bigEndian: bigEndian).map(Int.init)
                case 4: bytes.uint32(at: entry + 8, bigEndian: bigEndian).map(Int.init)
                default: nil
                }
            values[tag] = value
            if value != nil { fields[tag] = (entry + 8, type == 3 ? 2 : 4) }
        }
    }
}
