import Foundation
import SwiftVisionCore

/// Why a model's TFLite metadata or packed files cannot be read.
public enum MetadataError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    case malformed(String)
    case packedFileNotFound(name: String, model: String)
    case packedFilesUnreadable(model: String, reason: String)

    public var description: String {
        switch self {
        case .malformed(let reason): "malformed TFLite metadata: \(reason)"
        case .packedFileNotFound(let name, let model): "\(model) packs no file named \(name)"
        case .packedFilesUnreadable(let model, let reason): "cannot read the files packed in \(model): \(reason)"
        }
    }

    public var errorDescription: String? { description }
}
