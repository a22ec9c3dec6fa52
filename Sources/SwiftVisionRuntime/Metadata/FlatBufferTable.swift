import Foundation
import SwiftVisionCore

/// A read-only, bounds-checked view of one table in a FlatBuffers buffer.
///
/// Only what TFLite metadata needs: scalars, strings, tables, vectors of those, unions.
///
/// Offsets may point at the same string, vector or table again and again, so a small buffer could
/// make a reader produce gigabytes (a thousand names that are all one 1 MB string) or walk the same
/// tables for ever. Every table view, vector element and string read from one root is therefore
/// charged its size in the buffer against one ``ReadAllowance`` of twice the buffer's size: a reader
/// that reads each part once, or twice, stays well inside it; a buffer built to repeat itself does not.
struct FlatBufferTable {
    let buffer: Data
    let position: Int
    private let allowance: ReadAllowance

    /// What reading one table is charged: at least its offset to the vtable and one vtable entry.
    private static let tableCharge = 8

    /// The root table of `buffer`.
    init(root buffer: Data) throws {
        self.buffer = buffer
        allowance = ReadAllowance(bytes: 2 * buffer.count + ReadAllowance.slack)
        position = try Self.offset(buffer, at: 0)
        _ = try vtable()
    }

    private init(buffer: Data, position: Int, allowance: ReadAllowance) throws {
        try allowance.charge(Self.tableCharge)
        self.buffer = buffer
        self.position = position
        self.allowance = allowance
    }

    /// Whether bytes 4–7 hold `identifier`.
    static func hasIdentifier(_ identifier: String, in buffer: Data) -> Bool {
        buffer.count >= 8 && Data(buffer[buffer.startIndex + 4..<buffer.startIndex + 8]) == Data(identifier.utf8)
    }

    func string(_ field: Int) throws -> String? {
        guard let location = try indirect(field) else { return nil }
        return try string(at: location)
    }

    func table(_ field: Int) throws -> FlatBufferTable? {
        try indirect(field).map { try FlatBufferTable(buffer: buffer, position: $0, allowance: allowance) }
    }

    func tables(_ field: Int) throws -> [FlatBufferTable] {
        try vectorElements(field, size: 4).map {
            try FlatBufferTable(buffer: buffer, position: try Self.offset(buffer, at: $0), allowance: allowance)
        }
    }

    func strings(_ field: Int) throws -> [String] {
        try vectorElements(field, size: 4).map { try string(at: try Self.offset(buffer, at: $0)) }
    }

    func floats(_ field: Int) throws -> [Float] {
        try vectorElements(field, size: 4).map { Float(bitPattern: UInt32(try Self.scalar(buffer, at: $0, size: 4))) }
    }

    func uint8(_ field: Int, default value: UInt8 = 0) throws -> UInt8 {
        guard let location = try fieldLocation(field) else { return value }
        return UInt8(try Self.scalar(buffer, at: location, size: 1))
    }

    func uint32(_ field: Int, default value: UInt32 = 0) throws -> UInt32 {
        guard let location = try fieldLocation(field) else { return value }
        return UInt32(try Self.scalar(buffer, at: location, size: 4))
    }

    func uint64(_ field: Int, default value: UInt64 = 0) throws -> UInt64 {
        guard let location = try fieldLocation(field) else { return value }
        let low = UInt64(try Self.scalar(buffer, at: location, size: 4))
        let high = UInt64(try Self.scalar(buffer, at: location + 4, size: 4))
        return high << 32 | low
    }

    func float(_ field: Int, default value: Float = 0) throws -> Float {
        guard let location = try fieldLocation(field) else { return value }
        return Float(bitPattern: UInt32(try Self.scalar(buffer, at: location, size: 4)))
    }

    // MARK: Verification

    /// Checks that the table's vtable and every inline field lie inside the buffer.
    func checkInline() throws {
        let (vtable, _) = try vtable()
        let inlineSize = try Self.scalar(buffer, at: vtable + 2, size: 2)
        guard inlineSize >= 4, position + inlineSize <= buffer.count else { throw MetadataError.malformed("table overruns the buffer") }
    }

    /// The element count of the vector in `field` after checking that its `elementSize`-byte elements
    /// lie inside the buffer; 0 when the field is absent.
    func checkedVectorCount(_ field: Int, elementSize: Int) throws -> Int {
        try vector(field, size: elementSize)?.count ?? 0
    }

    /// Checks that the string in `field`, if any, lies inside the buffer.
    func checkString(_ field: Int) throws {
        _ = try string(field)
    }

    // MARK: Layout

    private func vtable() throws -> (position: Int, size: Int) {
        let relative = Int(Int32(truncatingIfNeeded: try Self.scalar(buffer, at: position, size: 4)))
        let vtable = position - relative
        let size = try Self.scalar(buffer, at: vtable, size: 2)
        guard size >= 4, vtable >= 0, vtable + size <= buffer.count else { throw MetadataError.malformed("bad vtable") }
        return (vtable, size)
    }

    private func fieldLocation(_ field: Int) throws -> Int? {
        let (vtable, size) = try vtable()
        let entry = 4 + 2 * field
        guard entry + 2 <= size else { return nil }
        let offset = try Self.scalar(buffer, at: vtable + entry, size: 2)
        return offset == 0 ? nil : position + offset
    }

    private func indirect(_ field: Int) throws -> Int? {
        try fieldLocation(field).map { try Self.offset(buffer, at: $0) }
    }

    /// Where the elements of the vector in `field` start and how many there are, after checking that its
    /// `size`-byte elements lie inside the buffer and charging them to the allowance; nil when absent.
    private func vector(_ field: Int, size: Int) throws -> (start: Int, count: Int)? {
        guard let vector = try indirect(field) else { return nil }
        let count = try Self.scalar(buffer, at: vector, size: 4)
        guard vector + 4 + count * size <= buffer.count else { throw MetadataError.malformed("vector overruns the buffer") }
        try allowance.charge(4 + count * size)
        return (vector + 4, count)
    }

    private func vectorElements(_ field: Int, size: Int) throws -> [Int] {
        guard let (start, count) = try vector(field, size: size) else { return [] }
        return (0..<count).map { start + $0 * size }
    }

    private func string(at location: Int) throws -> String {
        let length = try Self.scalar(buffer, at: location, size: 4)
        guard location + 4 + length <= buffer.count else { throw MetadataError.malformed("string overruns the buffer") }
        try allowance.charge(4 + length)
        let start = buffer.startIndex + location + 4
        return String(decoding: buffer[start..<start + length], as: UTF8.self)
    }

    private static func offset(_ buffer: Data, at location: Int) throws -> Int {
        let target = location + (try scalar(buffer, at: location, size: 4))
        guard target < buffer.count else { throw MetadataError.malformed("offset points outside the buffer") }
        return target
    }

    /// A little-endian unsigned integer of `size` bytes.
    private static func scalar(_ buffer: Data, at location: Int, size: Int) throws -> Int {
        guard location >= 0, location + size <= buffer.count else {
            throw MetadataError.malformed("read past the end of the buffer")
        }
        // Through the raw bytes: a Data subscript per byte made checking a model's structure cost
        // milliseconds per load.
        return buffer.withUnsafeBytes { bytes in
            var value = 0
            for index in (0..<size).reversed() {
                value = value << 8 | Int(bytes[location + index])
            }
            return value
        }
    }
}

/// What the readers of one FlatBuffers buffer may still read, in bytes of the buffer (see ``FlatBufferTable``).
/// Used by one thread at a time, as its tables are.
private final class ReadAllowance {
    /// Room for the small fixed charges of a tiny buffer.
    static let slack = 4096

    private var remaining: Int

    init(bytes: Int) {
        remaining = bytes
    }

    func charge(_ bytes: Int) throws {
        remaining -= bytes
        guard remaining >= 0 else {
            throw MetadataError.malformed("its offsets point at the same data again and again (more than twice its size read)")
        }
    }
}
