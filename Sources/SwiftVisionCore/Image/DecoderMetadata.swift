import Foundation

/// Metadata that OpenCV's decoders would act on but SwiftVision handles itself, taken out of encoded
/// images before decoding:
/// - a PNG's `iCCP` colour profile, never applied (libpng reports profiles it finds invalid on standard error);
/// - a PNG's `eXIf` chunk, whose orientation ``ImageHeader`` reads (libpng reports malformed ones);
/// - a TIFF's orientation tag, set to 1: libtiff's RGBA reader, which OpenCV uses for 8-bit images, would
///   otherwise flip the pixels by it, and the orientation is applied once, from the header.
enum DecoderMetadata {
    /// Encoded image `data` in `format` without that metadata.
    static func removed(from data: Data, format: ImageFormat) -> Data {
        switch format {
        case .png: pngChunksRemoved(from: data)
        case .tiff: tiffOrientationCleared(in: data)
        case .jpeg, .webp, .bmp, .heif, .avif, .gif, .netpbm, .jpeg2000: data
        }
    }

    private static func pngChunksRemoved(from data: Data) -> Data {
        let removed = PNGChunk.chunks(in: ByteReader(data)).filter { $0.type == "iCCP" || $0.type == "eXIf" }
        guard !removed.isEmpty else { return data }
        var kept = Data(capacity: data.count)
        var copied = 0
        for chunk in removed {
            kept.append(data[data.startIndex + copied..<data.startIndex + chunk.start])
            copied = chunk.end
        }
        kept.append(data[(data.startIndex + copied)...])
        return kept
    }

    private static func tiffOrientationCleared(in data: Data) -> Data {
        guard let tags = try? TIFFTags(ByteReader(data), tiffStart: 0, wanted: [274]), tags.values[274] != 1,
            let field = tags.fields[274]
        else { return data }
        let one = (0..<field.size).map { UInt8($0 == (tags.bigEndian ? field.size - 1 : 0) ? 1 : 0) }
        var cleared = data
        let start = cleared.startIndex + field.offset
        cleared.replaceSubrange(start..<start + field.size, with: one)
        return cleared
    }
}
