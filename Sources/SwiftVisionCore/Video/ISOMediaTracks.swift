import Foundation

/// The kinds of the tracks of an ISO base media file (MP4, M4A, 3GP, QuickTime), read from the handler box of
/// each track (`moov/trak/mdia/hdlr`, ISO/IEC 14496-12 §8.4.3): `vide` for video, `soun` for sound, `text`,
/// `meta`, `hint` and others. The file is untrusted: every box must lie within its parent and the data, and
/// a size that does not (or a track without a readable handler) makes the whole answer nil, never a guess.
/// The walk visits each box once and boxes are at least 8 bytes long, so it is linear in the data's size.
struct ISOMediaTracks {
    /// The handler type of each track, in file order.
    let handlerTypes: [String]

    /// The tracks of `bytes`, a whole ISO base media file; nil when it has no movie box (`moov`) within the data,
    /// or a box of it is malformed.
    init?(_ bytes: ByteReader) {
        guard let movie = Self.firstChild("moov", of: 0..<bytes.count, in: bytes) else { return nil }
        var handlerTypes: [String] = []
        let walked = Self.walkChildren(of: movie, in: bytes) { type, track in
            guard type == Self.code("trak") else { return true }
            guard let media = Self.firstChild("mdia", of: track, in: bytes),
                let handler = Self.firstChild("hdlr", of: media, in: bytes),
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

    /// The four-character code `text` as the big-endian number a box header stores.
    private static func code(_ text: StaticString) -> UInt32 {
        text.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    /// The contents of the first box of type `type` among the boxes that fill `range`; nil when there is
    /// none or a box before it is malformed.
    private static func firstChild(_ type: StaticString, of range: Range<Int>, in bytes: ByteReader) -> Range<Int>? {
        let wanted = code(type)
        var found: Range<Int>?
        _ = walkChildren(of: range, in: bytes) { type, payload in
            if type == wanted { found = payload }
            return found == nil
        }
        return found
    }

    /// Calls `visit` with the type and contents of each box that fills `range` of `bytes`, one after another,
    /// until it returns false; returns false when it did, or when a box's size runs outside `range` or is smaller
    /// than its own header.
    private static func walkChildren(of range: Range<Int>, in bytes: ByteReader, _ visit: (UInt32, Range<Int>) -> Bool) -> Bool {
        var start = range.lowerBound
        while start < range.upperBound {
            guard range.upperBound - start >= 8, let size32 = bytes.uint32(at: start, bigEndian: true),
                let type = bytes.uint32(at: start + 4, bigEndian: true)
            else { return false }
            var header = 8
            var size = Int(size32)
            if size32 == 1 {
                // A 64-bit size follows the type; beyond Int's range it cannot lie within the data anyway.
                guard range.upperBound - start >= 16, let high = bytes.uint32(at: start + 8, bigEndian: true),
                    let low = bytes.uint32(at: start + 12, bigEndian: true), high < 0x8000_0000
                else { return false }
                header = 16
                size = Int(high) << 32 | Int(low)
            } else if size32 == 0 {
                // Size 0: the box runs to the end of its parent (the file, for a top-level box).
                size = range.upperBound - start
            }
            guard size >= header, size <= range.upperBound - start, visit(type, start + header..<start + size) else { return false }
            start += size
        }
        return true
    }
}
