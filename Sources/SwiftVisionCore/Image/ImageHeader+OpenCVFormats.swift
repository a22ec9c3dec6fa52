import Foundation

/// The sizes of the formats that only OpenCV's decoders read (Netpbm, JPEG 2000), taken from their
/// headers before any pixel is decoded, so that the pixel limits hold before OpenCV allocates.
extension ImageHeader {
    /// Whether `bytes` open a Netpbm image that OpenCV reads: PBM, PGM or PPM (`P1`–`P6`) or PAM (`P7`),
    /// the magic followed by whitespace. The floating-point PFM (`PF`, `Pf`) is not among them.
    static func isNetpbm(_ bytes: ByteReader) -> Bool {
        guard bytes.uint8(at: 0) == UInt8(ascii: "P"), let kind = bytes.uint8(at: 1), (UInt8(ascii: "1")...UInt8(ascii: "7")).contains(kind),
            let separator = bytes.uint8(at: 2)
        else { return false }
        return isNetpbmSpace(separator)
    }

    /// Whether `bytes` open a JPEG 2000 file (the JP2 signature box) or a bare codestream (SOC then SIZ).
    static func isJPEG2000(_ bytes: ByteReader) -> Bool {
        bytes.matches([0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A], at: 0) || bytes.matches([0xFF, 0x4F, 0xFF, 0x51], at: 0)
    }

    /// A Netpbm image's width and height: for `P1`–`P6` the first two numbers after the magic (comments
    /// from `#` to the line's end skipped, as the Netpbm formats allow); for PAM the `WIDTH` and `HEIGHT`
    /// lines before `ENDHDR`.
    static func parseNetpbm(_ bytes: ByteReader) throws -> (Int, Int) {
        if bytes.uint8(at: 1) == UInt8(ascii: "7") { return try parsePAM(bytes) }
        var offset = 2
        var numbers: [Int] = []
        while numbers.count < 2 {
            guard let byte = bytes.uint8(at: offset) else { throw ImageError.truncated(.netpbm) }
            if isNetpbmSpace(byte) {
                offset += 1
            } else if byte == UInt8(ascii: "#") {
                guard let end = bytes.offset(of: 0x0A, from: offset) else { throw ImageError.truncated(.netpbm) }
                offset = end + 1
            } else {
                numbers.append(try netpbmNumber(bytes, at: &offset))
            }
        }
        return (numbers[0], numbers[1])
    }

    private static func parsePAM(_ bytes: ByteReader) throws -> (Int, Int) {
        var offset = 3
        var width: Int?, height: Int?
        while true {
            guard let end = bytes.offset(of: 0x0A, from: offset), end - offset < 1024 else { throw ImageError.truncated(.netpbm) }
            let words = String(decoding: (offset..<end).compactMap { bytes.uint8(at: $0) }, as: UTF8.self).split(whereSeparator: \.isWhitespace)
            offset = end + 1
            guard let key = words.first, !key.hasPrefix("#") else { continue }
            if key == "ENDHDR" { break }
            if key == "WIDTH" || key == "HEIGHT" {
                guard words.count == 2, let value = Int(words[1]), value > 0, value < 1 << 31 else {
                    throw ImageError.corrupt(.netpbm, reason: "bad \(key) line")
                }
                if key == "WIDTH" { width = value } else { height = value }
            }
        }
        guard let width, let height else { throw ImageError.corrupt(.netpbm, reason: "no WIDTH or HEIGHT line") }
        return (width, height)
    }

    private static func isNetpbmSpace(_ byte: UInt8) -> Bool {
        [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(byte)
    }

    /// The decimal number at `offset` (at most 10 digits), moving `offset` past it.
    private static func netpbmNumber(_ bytes: ByteReader, at offset: inout Int) throws -> Int {
        var value = 0
        var digits = 0
        while let byte = bytes.uint8(at: offset), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            digits += 1
            guard digits <= 10 else { throw ImageError.corrupt(.netpbm, reason: "a size of more than 10 digits") }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            offset += 1
        }
        guard digits > 0 else { throw ImageError.corrupt(.netpbm, reason: "the header has no width or height") }
        return value
    }

    /// A JPEG 2000 image's size: from a JP2 file's image header box (`ihdr` in `jp2h`), or from a
    /// codestream's SIZ marker segment (the reference grid less its offset; ITU-T T.800 A.5.1).
    static func parseJPEG2000(_ bytes: ByteReader) throws -> (Int, Int) {
        if bytes.matches([0xFF, 0x4F, 0xFF, 0x51], at: 0) {
            guard let gridWidth = bytes.uint32(at: 8, bigEndian: true), let gridHeight = bytes.uint32(at: 12, bigEndian: true),
                let left = bytes.uint32(at: 16, bigEndian: true), let top = bytes.uint32(at: 20, bigEndian: true)
            else { throw ImageError.truncated(.jpeg2000) }
            guard gridWidth > left, gridHeight > top else { throw ImageError.corrupt(.jpeg2000, reason: "an empty image area") }
            return (Int(gridWidth - left), Int(gridHeight - top))
        }
        guard let header = jp2Box("jp2h", in: bytes, from: 0, to: bytes.count),
            let image = jp2Box("ihdr", in: bytes, from: header.lowerBound, to: header.upperBound),
            let height = bytes.uint32(at: image.lowerBound, bigEndian: true), let width = bytes.uint32(at: image.lowerBound + 4, bigEndian: true)
        else { throw ImageError.corrupt(.jpeg2000, reason: "no image header box") }
        return (Int(width), Int(height))
    }

    /// The contents of the first box of `type` among the boxes from `start` to `end` (ISO/IEC 15444-1 I.4).
    private static func jp2Box(_ type: String, in bytes: ByteReader, from start: Int, to end: Int) -> Range<Int>? {
        var offset = start
        while offset + 8 <= end, let length = bytes.uint32(at: offset, bigEndian: true) {
            var headerSize = 8
            var size = Int(length)
            if length == 1 {
                guard let high = bytes.uint32(at: offset + 8, bigEndian: true), high == 0,
                    let low = bytes.uint32(at: offset + 12, bigEndian: true)
                else { return nil }
                (headerSize, size) = (16, Int(low))
            } else if length == 0 {
                size = end - offset
            }
            guard size >= headerSize, offset + size <= end else { return nil }
            if bytes.matches(Array(type.utf8), at: offset + 4) { return offset + headerSize..<offset + size }
            offset += size
        }
        return nil
    }
}
