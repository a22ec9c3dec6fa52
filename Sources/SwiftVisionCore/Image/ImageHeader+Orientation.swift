import Foundation

/// Where each format keeps its EXIF orientation. A missing, malformed or out-of-range tag reads as `.up`.
extension ImageHeader {
    /// The orientation tag (274) of `tiff`, a TIFF structure as EXIF blocks hold it.
    static func orientation(inTIFF tiff: ByteReader) -> ImageOrientation {
        orientation(tagValue: (try? TIFFTags(tiff, tiffStart: 0, wanted: [274]))?.values[274])
    }

    /// The orientation that the value of tag 274 names, if it names one.
    static func orientation(tagValue: Int?) -> ImageOrientation {
        tagValue.flatMap { ImageOrientation(rawValue: UInt8(clamping: $0)) } ?? .up
    }

    /// A PNG's `eXIf` chunk, which counts only before the image data (`IDAT`).
    static func pngOrientation(_ bytes: ByteReader) -> ImageOrientation {
        guard let exif = PNGChunk.chunks(in: bytes).first(where: { $0.type == "eXIf" }) else { return .up }
        return orientation(inTIFF: bytes.slice(from: exif.payload.lowerBound, to: exif.payload.upperBound))
    }

    /// A WebP's `EXIF` chunk, present when the `VP8X` chunk sets the EXIF flag; its TIFF structure may
    /// follow an "Exif\0\0" header as in JPEG.
    static func webPOrientation(_ bytes: ByteReader) -> ImageOrientation {
        let exifFlag: UInt8 = 0x08
        guard bytes.matches(Array("VP8X".utf8), at: 12), let flags = bytes.uint8(at: 20), flags & exifFlag != 0,
            let riffSize = bytes.uint32(at: 4, bigEndian: false)
        else { return .up }
        let riff = bytes.slice(from: 0, to: 8 + Int(riffSize))
        var chunk = 12
        while let size = riff.uint32(at: chunk + 4, bigEndian: false) {
            let payload = chunk + 8
            let end = payload + Int(size)
            guard end <= riff.count else { return .up }
            if riff.matches(Array("EXIF".utf8), at: chunk) {
                let start = riff.matches(Array("Exif".utf8) + [0, 0], at: payload) ? payload + 6 : payload
                return orientation(inTIFF: riff.slice(from: start, to: end))
            }
            chunk = end + Int(size % 2)
        }
        return .up
    }
}
