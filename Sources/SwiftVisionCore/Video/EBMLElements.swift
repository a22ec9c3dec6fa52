import Foundation

/// Reading the elements of an EBML document, the structure of Matroska and WebM files (RFC 8794): each
/// element is an ID and a size, both variable-length integers whose first byte's leading zeros give their
/// length, then its contents, which for a master element are elements again. The data is untrusted: a header
/// that is not a valid variable-length integer, or a size running past the element's parent, is reported as
/// such, never guessed.
enum EBMLElements {
    /// An element's header: its ID with the length marker kept (as the specifications write IDs), where its
    /// contents start, and their size; nil for the unknown size (all value bits set) that a live recording
    /// gives its segment and clusters.
    struct Header {
        let id: UInt32
        let contentStart: Int
        let size: Int?

        /// Where the contents end; nil for an unknown size.
        var contentEnd: Int? { size.map { contentStart + $0 } }
    }

    /// The variable-length integer at `offset` of `bytes`: its length in bytes (at most `longest`), its value
    /// with the length marker removed, and whether all of its value bits are set. Nil when the first byte is
    /// 0 or announces more than `longest` bytes, or the data ends first.
    static func variableInteger(at offset: Int, of bytes: ByteReader, longest: Int) -> (length: Int, value: Int, allOnes: Bool)? {
        guard let first = bytes.uint8(at: offset), first != 0 else { return nil }
        let length = first.leadingZeroBitCount + 1
        guard length <= longest else { return nil }
        var value = Int(first) & (0xFF >> length)
        var allOnes = value == 0xFF >> length
        for index in 1..<length {
            guard let byte = bytes.uint8(at: offset + index) else { return nil }
            value = value << 8 | Int(byte)
            allOnes = allOnes && byte == 0xFF
        }
        return (length, value, allOnes)
    }

    /// The header of the element at `offset`, read from `bytes`, the data from that offset on (at least 12
    /// bytes where the element's parent holds them). Nil when the ID or size is not a valid variable-length
    /// integer, or the contents would run past `end`, the end of the element's parent.
    static func header(at offset: Int, in bytes: ByteReader, before end: Int) -> Header? {
        guard let id = variableInteger(at: 0, of: bytes, longest: 4),
            let size = variableInteger(at: id.length, of: bytes, longest: 8)
        else { return nil }
        let marker = 1 << (7 * id.length)
        let contentStart = offset + id.length + size.length
        guard contentStart <= end else { return nil }
        if size.allOnes { return Header(id: UInt32(id.value | marker), contentStart: contentStart, size: nil) }
        guard size.value <= end - contentStart else { return nil }
        return Header(id: UInt32(id.value | marker), contentStart: contentStart, size: size.value)
    }

    /// The unsigned integer that fills `bytes` (big-endian, up to 8 bytes; 0 when empty); nil when longer, or
    /// at 2⁶³ and above.
    static func unsigned(_ bytes: ByteReader) -> Int? {
        guard bytes.count <= 8 else { return nil }
        return bytes.unsigned(at: 0, size: bytes.count, bigEndian: true).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// The IEEE 754 float that fills `bytes` (4 or 8 bytes, big-endian; 0 when empty); nil for another size.
    static func float(_ bytes: ByteReader) -> Double? {
        switch bytes.count {
        case 0: return 0
        case 4: return bytes.uint32(at: 0, bigEndian: true).map { Double(Float(bitPattern: $0)) }
        case 8: return bytes.unsigned(at: 0, size: 8, bigEndian: true).map { Double(bitPattern: UInt64(bitPattern: Int64($0))) }
        default: return nil
        }
    }

    /// Calls `visit` with the header of each element that fills `range` of `bytes` (a master element's
    /// contents, all in memory), until it returns false; returns false when it did, or when an element is
    /// malformed or of unknown size.
    static func walkChildren(of range: Range<Int>, in bytes: ByteReader, _ visit: (Header) -> Bool) -> Bool {
        var start = range.lowerBound
        while start < range.upperBound {
            guard let header = header(at: start, in: bytes.slice(from: start, to: range.upperBound), before: range.upperBound),
                let end = header.contentEnd, visit(header)
            else { return false }
            start = end
        }
        return true
    }
}
