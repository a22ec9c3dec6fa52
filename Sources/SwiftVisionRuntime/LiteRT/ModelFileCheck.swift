import Foundation
import SwiftVisionCore

/// Checks a `.tflite` file's FlatBuffers structure before LiteRT reads it: LiteRT follows the file's
/// offsets without checking them, so a model cut short (a half-written download, a truncated copy)
/// would make it read past the end of the file and crash the process.
///
/// Walks what LiteRT reads when it loads a model: the model table, its operator codes, subgraphs
/// (tensors with their quantisation and sparsity, operators with their options tables), buffers
/// (inline data, or an external range that must lie inside the file), metadata entries and signatures.
enum ModelFileCheck {
    /// Throws ``LiteRTError/incompatibleModel(_:)`` when `bytes`, read from the file `name`, are not a
    /// well-formed TFLite model.
    static func verify(_ bytes: UnsafeRawBufferPointer, name: String) throws {
        guard let base = bytes.baseAddress else { throw LiteRTError.incompatibleModel("\(name) is empty") }
        do {
            try verify(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none))
        } catch MetadataError.malformed(let reason) {
            throw LiteRTError.incompatibleModel("\(name) is not a whole TFLite model (\(reason))")
        }
    }

    /// Throws ``MetadataError`` when `data` is not a well-formed TFLite model.
    static func verify(_ data: Data) throws {
        guard data.count >= 8, FlatBufferTable.hasIdentifier("TFL3", in: data) else {
            throw MetadataError.malformed("no TFL3 identifier")
        }
        let model = try FlatBufferTable(root: data)
        try model.checkInline()
        for code in try model.tables(1) {
            try code.checkInline()
            try code.checkString(1)
        }
        let subgraphs = try model.tables(2)
        guard !subgraphs.isEmpty else { throw MetadataError.malformed("no subgraph") }
        for subgraph in subgraphs { try verifySubgraph(subgraph) }
        try model.checkString(3)
        for buffer in try model.tables(4) {
            try buffer.checkInline()
            _ = try buffer.checkedVectorCount(0, elementSize: 1)
            let offset = try buffer.uint64(1), size = try buffer.uint64(2)
            if offset > 1 {
                guard offset <= UInt64(data.count), size <= UInt64(data.count) - offset else {
                    throw MetadataError.malformed("a buffer's data lies outside the file")
                }
            }
        }
        _ = try model.checkedVectorCount(5, elementSize: 4)
        for entry in try model.tables(6) {
            try entry.checkInline()
            try entry.checkString(0)
        }
        for signature in try model.tables(7) {
            try signature.checkInline()
            for tensors in [0, 1] {
                for map in try signature.tables(tensors) {
                    try map.checkInline()
                    try map.checkString(0)
                }
            }
            try signature.checkString(2)
        }
    }

    private static func verifySubgraph(_ subgraph: FlatBufferTable) throws {
        try subgraph.checkInline()
        for tensor in try subgraph.tables(0) {
            try tensor.checkInline()
            _ = try tensor.checkedVectorCount(0, elementSize: 4)
            try tensor.checkString(3)
            if let quantization = try tensor.table(4) {
                try quantization.checkInline()
                for field in [0, 1, 2] { _ = try quantization.checkedVectorCount(field, elementSize: 4) }
                _ = try quantization.checkedVectorCount(3, elementSize: 8)
                if let details = try quantization.table(5) { try details.checkInline() }
            }
            if let sparsity = try tensor.table(6) {
                try sparsity.checkInline()
                for field in [0, 1] { _ = try sparsity.checkedVectorCount(field, elementSize: 4) }
                for dimension in try sparsity.tables(2) {
                    try dimension.checkInline()
                    // Segments and indices: unions of Int32Vector, Uint16Vector and Uint8Vector tables,
                    // checked at their widest element.
                    for field in [3, 5] {
                        guard let values = try dimension.table(field) else { continue }
                        try values.checkInline()
                        let width = [1: 4, 2: 2, 3: 1][Int(try dimension.uint8(field - 1))] ?? 1
                        _ = try values.checkedVectorCount(0, elementSize: width)
                    }
                }
            }
            _ = try tensor.checkedVectorCount(7, elementSize: 4)
        }
        for field in [1, 2] { _ = try subgraph.checkedVectorCount(field, elementSize: 4) }
        for operation in try subgraph.tables(3) {
            try operation.checkInline()
            for field in [1, 2, 8] { _ = try operation.checkedVectorCount(field, elementSize: 4) }
            if let options = try operation.table(4) { try options.checkInline() }
            _ = try operation.checkedVectorCount(5, elementSize: 1)
            _ = try operation.checkedVectorCount(7, elementSize: 1)
        }
        try subgraph.checkString(4)
    }
}
