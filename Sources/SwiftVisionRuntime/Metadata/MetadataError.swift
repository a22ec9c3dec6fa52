import Foundation
import SwiftVisionCore

/// Why a model's TFLite metadata or packed files cannot be read.
public enum MetadataError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The metadata flatbuffer is not TFLite metadata or is damaged.
    case malformed(String)
    /// The model file named `model` packs no file called `name`.
    case packedFileNotFound(name: String, model: String)
    /// The zip archive of files packed in the model file named `model` cannot be read.
    case packedFilesUnreadable(model: String, reason: String)
    /// The packed file `name` of the model file named `model` unpacks to more than `limit` bytes.
    case packedFileTooLarge(name: String, model: String, limit: Int)

    /// A one-line explanation of the error.
    public var description: String {
        switch self {
        case .malformed(let reason): "malformed TFLite metadata: \(reason)"
        case .packedFileNotFound(let name, let model): "\(model) packs no file named \(name)"
        case .packedFilesUnreadable(let model, let reason): "cannot read the files packed in \(model): \(reason)"
        case .packedFileTooLarge(let name, let model, let limit):
            "\(name) packed in \(model) unpacks to more than \(limit >> 20) MiB"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
