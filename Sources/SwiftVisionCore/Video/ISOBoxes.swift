import Foundation

/// Walking the boxes of an ISO base media file (MP4, M4A, 3GP, QuickTime; ISO/IEC 14496-12 §4.2): each box
/// is a 32-bit size, a four-character type and its contents, which for a container box are boxes again. The
/// file is untrusted: a box whose size runs outside its parent or is smaller than its own header ends the
/// walk with a failure, never a guess. Each box is visited once and is at least 8 bytes long, so a walk is
/// linear in the data's size.
enum ISOBoxes {
    /// The four-character code `text` as the big-endian number a box header stores.
    static func code(_ text: StaticString) -> UInt32 {
        text.withUTF8Buffer { $0.reduce(0) { $0 << 8 | UInt32($1) } }
    }

    /// The contents of the first box of type `type` among the boxes that fill `range`; nil when there is
    /// none or a box before it is malformed.
    static func firstChild(_ type: StaticString, of range: Range<Int>, in bytes: ByteReader) -> Range<Int>? {
        let wanted = code(type)
        var found: Range<Int>?
        _ = walkChildren(of: range, in: bytes) { type, payload in
            if type == wanted { found = payload }
            return found == nil
        }
        return found
    }

    /// The contents of the box at the end of `path` (each type a child of the one before) within `range`.
    static func descendant(_ path: [StaticString], of range: Range<Int>, in bytes: ByteReader) -> Range<Int>? {
        path.reduce(range as Range<Int>?) { range, type in range.flatMap { firstChild(type, of: $0, in: bytes) } }
    }

    /// Calls `visit` with the type and contents of each box that fills `range` of `bytes`, one after another,
    /// until it returns false; returns false when it did, or when a box's size runs outside `range` or is smaller
    /// than its own header.
    static func walkChildren(of range: Range<Int>, in bytes: ByteReader, _ visit: (UInt32, Range<Int>) -> Bool) -> Bool {
        var start = range.lowerBound
        while start < range.upperBound {
            guard let (type, header, size) = header(at: start, before: range.upperBound, in: bytes),
                visit(type, start + header..<start + size)
            else { return false }
            start += size
        }
        return true
    }

    /// The movie box (`moov`) of the file at `url`, read alone: the top-level boxes are found by their headers
    /// and skipped by seeking, so the frames (`mdat`, before or after it) are never read. Nil when the file
    /// cannot be read, has no movie box, a top-level box is malformed, or the movie box exceeds `limit` bytes.
    static func movieBox(ofFileAt url: URL, limit: Int = 64 << 20) -> ByteReader? {
        guard let file = FileWindow(url: url) else { return nil }
        return movieBox(size: file.size, limit: limit) { file.bytes(at: $0, count: $1) }
    }

    /// The movie box of a file of `size` bytes whose bytes `read(offset, count)` gives (fewer at its end), as
    /// ``movieBox(ofFileAt:limit:)`` finds it.
    static func movieBox(size: Int, limit: Int, read: (Int, Int) -> Data?) -> ByteReader? {
        var movie: ByteReader?
        _ = walkTopLevel(size: size, read: read) { type, start, header, size in
            guard type == code("moov") else { return true }
            if size - header <= limit, let contents = read(start + header, size - header), contents.count == size - header {
                movie = ByteReader(contents)
            }
            return false
        }
        return movie
    }

    /// Whether the file at `url` ends inside a top-level box that comes before any movie box (`moov`): it was
    /// cut short before its index was written (a recording stopped before it was finished, an incomplete
    /// copy), and its frames cannot be found without one.
    static func isCutBeforeMovieBox(ofFileAt url: URL) -> Bool {
        guard let file = FileWindow(url: url) else { return false }
        return walkTopLevel(size: file.size, read: { file.bytes(at: $0, count: $1) }) { type, _, _, _ in type != code("moov") }
    }

    /// Calls `visit` with the type, start, header length and size of each top-level box of a file of `size`
    /// bytes read through `read`, found by their headers alone, until it returns false. Returns whether the
    /// walk stopped at a box that runs past the end of the file; false when it ends otherwise (the file's
    /// end, `visit`, a malformed or unreadable header).
    private static func walkTopLevel(size fileSize: Int, read: (Int, Int) -> Data?, _ visit: (UInt32, Int, Int, Int) -> Bool) -> Bool {
        var start = 0
        while start < fileSize {
            guard let head = read(start, 16) else { return false }
            guard let (type, header, size) = header(at: 0, before: fileSize - start, in: ByteReader(head)) else {
                // A header that holds with no end to its parent: only its size runs past the file's end.
                return header(at: 0, before: .max, in: ByteReader(head)) != nil
            }
            guard visit(type, start, header, size) else { return false }
            start += size
        }
        return false
    }

    /// The type, header length and whole size of the box whose header starts at `start`, with `end` the end
    /// of its parent; nil when the header runs past `end` or the size does not fit between `start` and `end`.
    private static func header(at start: Int, before end: Int, in bytes: ByteReader) -> (type: UInt32, header: Int, size: Int)? {
        guard end - start >= 8, let size32 = bytes.uint32(at: start, bigEndian: true),
            let type = bytes.uint32(at: start + 4, bigEndian: true)
        else { return nil }
        var header = 8
        var size = Int(size32)
        if size32 == 1 {
            // A 64-bit size follows the type; beyond Int's range (read as Int.max) it cannot lie within the data.
            guard end - start >= 16, let size64 = bytes.uint64(at: start + 8, bigEndian: true) else { return nil }
            header = 16
            size = size64
        } else if size32 == 0 {
            // Size 0: the box runs to the end of its parent (the file, for a top-level box).
            size = end - start
        }
        guard size >= header, size <= end - start else { return nil }
        return (type, header, size)
    }
}
