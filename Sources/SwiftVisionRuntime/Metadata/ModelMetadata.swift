import Foundation
import SwiftVisionCore

/// A model's TFLite metadata (the `TFLITE_METADATA` flatbuffer, schema `M001`): what the model is,
/// how to normalise its input and which files (labels) it packs.
public struct ModelMetadata: Sendable, Equatable {
    /// The key of the metadata buffer in a `.tflite` file.
    static let bufferKey = "TFLITE_METADATA"

    /// The model's name.
    public var name: String?
    /// What the model does, in the words of its authors.
    public var description: String?
    /// The model's version, as its authors number it.
    public var version: String?
    /// Who made the model.
    public var author: String?
    /// The model's licence.
    public var license: String?
    /// Metadata of the main subgraph's inputs, in order.
    public var inputs: [TensorMetadata]
    /// Metadata of the main subgraph's outputs, in order.
    public var outputs: [TensorMetadata]
    /// Files associated with the whole model or its main subgraph.
    public var associatedFiles: [AssociatedFile]
    /// The oldest metadata parser version that understands every field of the metadata.
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
    /// The tensor's name.
    public var name: String?
    /// What the tensor holds, in the words of the model's authors.
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
    /// The colour channels of the image: RGB, grayscale, or unknown.
    public enum ColorSpace: UInt8, Sendable { case unknown = 0, rgb = 1, grayscale = 2 }
    /// The colour channels of the image.
    public var colorSpace: ColorSpace
    /// The width the model expects, in pixels, when the metadata gives one.
    public var defaultWidth: Int?
    /// The height the model expects, in pixels, when the metadata gives one.
    public var defaultHeight: Int?
}

/// What a packed file holds.
public enum AssociatedFileType: UInt8, Sendable, Codable {
    /// A file of no stated type.
    case unknown = 0
    /// Descriptions of the model, such as a readme.
    case descriptions = 1
    /// Labels of a tensor axis (an image classifier's classes).
    case tensorAxisLabels = 2
    /// Labels that tensor values refer to (a detector's class indices).
    case tensorValueLabels = 3
    /// Parameters that calibrate the scores along a tensor axis.
    case tensorAxisScoreCalibration = 4
    /// A vocabulary of words or word pieces for a tokenizer.
    case vocabulary = 5
    /// A ScaNN index for on-device search.
    case scannIndexFile = 6
}

/// A file described by the metadata and packed inside the `.tflite` file.
public struct AssociatedFile: Sendable, Equatable {
    /// The file's name inside the packed files.
    public var name: String
    /// What the file holds.
    public var description: String?
    /// What the file is for.
    public var type: AssociatedFileType
    /// The language of the file's contents, such as `en`, when it has one.
    public var locale: String?

    init(_ table: FlatBufferTable) throws {
        name = try table.string(0) ?? ""
        description = try table.string(1)
        type = AssociatedFileType(rawValue: try table.uint8(2)) ?? .unknown
        locale = try table.string(3)
    }
}
