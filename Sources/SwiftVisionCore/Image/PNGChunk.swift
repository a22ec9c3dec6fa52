import Foundation

/// A chunk of a PNG file, found by walking the chunks from the signature.
struct PNGChunk {
    /// The chunk's four-letter type.
    let type: String
    /// Where the chunk starts (its length field).
    let start: Int
    /// Its data, between the type and the CRC.
    let payload: Range<Int>
    /// Where the next chunk starts.
    var end: Int { payload.upperBound + 4 }

    /// The chunks of the PNG `bytes` before its image data (`IDAT`); the walk stops early at a chunk
    /// that runs past the end, which the decoder then reports.
    static func chunks(in bytes: ByteReader) -> [PNGChunk] {
        var chunks: [PNGChunk] = []
        var start = 8
        while let length = bytes.uint32(at: start, bigEndian: true) {
            let payload = start + 8..<start + 8 + Int(length)
            guard payload.upperBound + 4 <= bytes.count, !bytes.matches(Array("IDAT".utf8), at: start + 4) else { break }
            let type = String(decoding: (4..<8).compactMap { bytes.uint8(at: start + $0) }, as: UTF8.self)
            chunks.append(PNGChunk(type: type, start: start, payload: payload))
            start = payload.upperBound + 4
        }
        return chunks
    }
}
