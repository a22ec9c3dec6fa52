import Foundation
import SwiftVisionCore

/// A model's TFLite metadata (the `TFLITE_METADATA` flatbuffer, schema `M001`): what the model is,
/// how to normalise its input and which files (labels) it packs.
public struct ModelMetadata: Sendable, Equatable {
    /// The key of the metadata buffer in a `.tflite` file.
    static let bufferKey = "TFLITE_METADATA"

    public var name: String?
    public var description: String?
    public var version: String?
    public var author: String?
    public var license: String?
    /// Metadata of the main subgraph's inputs, in order.
    public var inputs: [TensorMetadata]
    /// Metadata of the main subgraph's outputs, in order.
    public var outputs: [TensorMetadata]
    /// Files associated with the whole model or its main subgraph.
    public var associatedFiles: [AssociatedFile]
    public var minimumParserVersion: String?

    /// Parses a metadata flatbuffer.
    public init(flatBuffer: Data) throws {
        guard FlatBufferTable.hasIdentifier("M001", in: flatBuffer) else {
            throw MetadataError.malformed("the buffer is not TFLite metadata (identifier M001)")
        }
        let root = try FlatBufferTable(root: flatBuffer)
        name = try root.string(0)
        description = try root.string(1)
        version = try root.string(2)
        author = try root.string(4)
        license = try root.string(5)
        minimumParserVersion = try root.string(7)
        let subgraph = try root.tables(3).first
        inputs = try subgraph?.tables(2).map(TensorMetadata.init) ?? []
        outputs = try subgraph?.tables(3).map(TensorMetadata.init) ?? []
        associatedFiles = try root.tables(6).map(AssociatedFile.init) + (subgraph?.tables(4).map(AssociatedFile.init) ?? [])
    }
}

/// Metadata of one input or output tensor.
public struct TensorMetadata: Sendable, Equatable {
    public var name: String?
    public var description: String?
    /// Per-channel `(value − mean) / std` normalisation of the input.
    public var normalization: Normalization?
    /// The recommended score threshold of an output.
    public var scoreThreshold: Float?
    /// Present when the tensor is an image.
    public var imageProperties: ImageProperties?
    /// Files of this tensor, such as its labels.
    public var associatedFiles: [AssociatedFile]

    /// The first file of `type` (labels are `.tensorAxisLabels`).
    public func associatedFile(ofType type: AssociatedFileType) -> AssociatedFile? {
        associatedFiles.first { $0.type == type }
    }

    init(_ table: FlatBufferTable) throws {
        name = try table.string(0)
        description = try table.string(1)
        associatedFiles = try table.tables(6).map(AssociatedFile.init)
        if let content = try table.content, try content.uint8(0) == 2, let properties = try content.table(1) {
            let size = try properties.table(1)
            imageProperties = ImageProperties(
                colorSpace: ImageProperties.ColorSpace(rawValue: try properties.uint8(0)) ?? .unknown,
                defaultWidth: try size.map { Int(try $0.uint32(0)) },
                defaultHeight: try size.map { Int(try $0.uint32(1)) })
        }
        for unit in try table.tables(4) {
            guard let options = try unit.table(1) else { continue }
            switch try unit.uint8(0) {
            case 1: normalization = Normalization(mean: try options.floats(0), std: try options.floats(1))
            case 3: scoreThreshold = try options.float(0)
            default: break
            }
        }
    }
}

private extension FlatBufferTable {
    var content: FlatBufferTable? { get throws { try table(3) } }
}

/// Properties of an image tensor.
public struct ImageProperties: Sendable, Equatable {
    public enum ColorSpace: UInt8, Sendable { case unknown = 0, rgb = 1, grayscale = 2 }
    public var colorSpace: ColorSpace
    public var defaultWidth: Int?
    public var defaultHeight: Int?
}

/// What a packed file holds.
public enum AssociatedFileType: UInt8, Sendable, Codable {
    case unknown = 0
    case descriptions = 1
    /// Labels of a tensor axis (an image classifier's classes).
    case tensorAxisLabels = 2
    /// Labels that tensor values refer to (a detector's class indices).
    case tensorValueLabels = 3
    case tensorAxisScoreCalibration = 4
    case vocabulary = 5
    case scannIndexFile = 6
}

/// A file described by the metadata and packed inside the `.tflite` file.
public struct AssociatedFile: Sendable, Equatable {
    public var name: String
    public var description: String?
    public var type: AssociatedFileType
    public var locale: String?

    init(_ table: FlatBufferTable) throws {
        name = try table.string(0) ?? ""
        description = try table.string(1)
        type = AssociatedFileType(rawValue: try table.uint8(2)) ?? .unknown
        locale = try table.string(3)
    }
}
