import Foundation

/// The kinds of the tracks of an ISO base media file (MP4, M4A, 3GP, QuickTime), read from the handler box of
/// each track (`moov/trak/mdia/hdlr`, ISO/IEC 14496-12 §8.4.3): `vide` for video, `soun` for sound, `text`,
/// `meta`, `hint` and others. The file is untrusted: every box must lie within its parent and the data, and
/// a size that does not (or a track without a readable handler) makes the whole answer nil, never a guess
/// (``ISOBoxes``).
struct ISOMediaTracks {
    /// The handler type of each track, in file order.
    let handlerTypes: [String]

    /// The tracks of `bytes`, a whole ISO base media file; nil when it has no movie box (`moov`) within the data,
    /// or a box of it is malformed.
    init?(_ bytes: ByteReader) {
        guard let movie = ISOBoxes.firstChild("moov", of: 0..<bytes.count, in: bytes) else { return nil }
        var handlerTypes: [String] = []
        let walked = ISOBoxes.walkChildren(of: movie, in: bytes) { type, track in
            guard type == ISOBoxes.code("trak") else { return true }
            guard let media = ISOBoxes.firstChild("mdia", of: track, in: bytes),
                let handler = ISOBoxes.firstChild("hdlr", of: media, in: bytes),
                // Version and flags (4 bytes) and pre_defined (4) come before the handler type.
                handler.count >= 12, let kind = bytes.uint32(at: handler.lowerBound + 8, bigEndian: true)
            else { return false }
            handlerTypes.append(String((0..<4).map { Character(Unicode.Scalar(UInt8(truncatingIfNeeded: kind >> (24 - 8 * $0)))) }))
            return true
        }
        guard walked else { return nil }
        self.handlerTypes = handlerTypes
    }

    /// Whether the file holds sound and nothing to look at: at least one sound track, and no video (`vide`),
    /// picture (`pict`) or auxiliary video (`auxv`) track.
    var holdsSoundOnly: Bool {
        handlerTypes.contains("soun") && !handlerTypes.contains { ["vide", "pict", "auxv"].contains($0) }
    }
}
