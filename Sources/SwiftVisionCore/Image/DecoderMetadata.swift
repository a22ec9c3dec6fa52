import Foundation

/// Metadata that OpenCV's decoders would act on but SwiftVision handles itself, taken out of encoded
/// images before decoding:
/// - a PNG's `iCCP` colour profile, never applied (libpng reports profiles it finds invalid on standard error);
/// - a PNG's `eXIf` chunk, whose orientation ``ImageHeader`` reads (libpng reports malformed ones);
/// - a TIFF's unassociated alpha, marked unspecified (below);
/// - a TIFF's orientation tag, set to 1: libtiff's RGBA reader, which OpenCV uses for 8-bit images, would
///   otherwise flip the pixels by it, and the orientation is applied once, from the header.
enum DecoderMetadata {
    /// Encoded image `data` in `format` without that metadata.
    static func removed(from data: Data, format: ImageFormat) -> Data {
        switch format {
        case .png: pngChunksRemoved(from: data)
        case .tiff: tiffTagsNeutralised(in: data)
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

    /// A TIFF with its orientation tag set to 1 and an unassociated alpha's ExtraSamples (338) value 2 set
    /// to 0 (unspecified): libtiff's RGBA reader multiplies the colours by an unassociated alpha, where
    /// Pillow keeps the stored colours (an RGBA TIFF from Pillow came out 49.7 levels darker on
    /// average under a varying alpha); an unspecified extra sample is left out and the colours kept.
    private static func tiffTagsNeutralised(in data: Data) -> Data {
        guard let tags = try? TIFFTags(ByteReader(data), tiffStart: 0, wanted: [274, 338]) else { return data }
        var cleared = data
        for (tag, from, to) in [(UInt16(274), nil as Int?, 1), (338, 2, 0)] {
            guard let value = tags.values[tag], value != to, from == nil || value == from, let field = tags.fields[tag] else { continue }
            let bytes = (0..<field.size).map { UInt8($0 == (tags.bigEndian ? field.size - 1 : 0) ? to : 0) }
            let start = cleared.startIndex + field.offset
            cleared.replaceSubrange(start..<start + field.size, with: bytes)
        }
        return cleared
    }
}
