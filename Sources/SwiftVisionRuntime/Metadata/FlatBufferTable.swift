import Foundation
import SwiftVisionCore

/// A read-only, bounds-checked view of one table in a FlatBuffers buffer.
///
/// Only what TFLite metadata needs: scalars, strings, tables, vectors of those, unions.
struct FlatBufferTable {
    let buffer: Data
    let position: Int

    /// The root table of `buffer`.
    init(root buffer: Data) throws {
        self.buffer = buffer
        position = try Self.offset(buffer, at: 0)
        _ = try vtable()
    }

    private init(buffer: Data, position: Int) {
        self.buffer = buffer
        self.position = position
    }

    /// Whether bytes 4–7 hold `identifier`.
    static func hasIdentifier(_ identifier: String, in buffer: Data) -> Bool {
        buffer.count >= 8 && Data(buffer[buffer.startIndex + 4..<buffer.startIndex + 8]) == Data(identifier.utf8)
    }

    func string(_ field: Int) throws -> String? {
        guard let location = try indirect(field) else { return nil }
        return try Self.string(buffer, at: location)
    }

    func table(_ field: Int) throws -> FlatBufferTable? {
        try indirect(field).map { FlatBufferTable(buffer: buffer, position: $0) }
    }

    func tables(_ field: Int) throws -> [FlatBufferTable] {
        try vectorElements(field, size: 4).map { FlatBufferTable(buffer: buffer, position: try Self.offset(buffer, at: $0)) }
    }

    func strings(_ field: Int) throws -> [String] {
        try vectorElements(field, size: 4).map { try Self.string(buffer, at: try Self.offset(buffer, at: $0)) }
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
        try vectorElements(field, size: elementSize).count
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

    private func vectorElements(_ field: Int, size: Int) throws -> [Int] {
        guard let vector = try indirect(field) else { return [] }
        let count = try Self.scalar(buffer, at: vector, size: 4)
        guard vector + 4 + count * size <= buffer.count else { throw MetadataError.malformed("vector overruns the buffer") }
        return (0..<count).map { vector + 4 + $0 * size }
    }

    private static func offset(_ buffer: Data, at location: Int) throws -> Int {
        let target = location + (try scalar(buffer, at: location, size: 4))
        guard target < buffer.count else { throw MetadataError.malformed("offset points outside the buffer") }
        return target
    }

    private static func string(_ buffer: Data, at location: Int) throws -> String {
        let length = try scalar(buffer, at: location, size: 4)
        guard location + 4 + length <= buffer.count else { throw MetadataError.malformed("string overruns the buffer") }
        let start = buffer.startIndex + location + 4
        return String(decoding: buffer[start..<start + length], as: UTF8.self)
    }

    /// A little-endian unsigned integer of `size` bytes.
    private static func scalar(_ buffer: Data, at location: Int, size: Int) throws -> Int {
        guard location >= 0, location + size <= buffer.count else {
            throw MetadataError.malformed("read past the end of the buffer")
        }
        var value = 0
        for index in (0..<size).reversed() {
            value = value << 8 | Int(buffer[buffer.startIndex + location + index])
        }
        return value
    }
}
