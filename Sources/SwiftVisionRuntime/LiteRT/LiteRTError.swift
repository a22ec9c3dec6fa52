import Foundation
import SwiftVisionCore

/// A failure of the LiteRT runtime or of a model.
public enum LiteRTError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// `libLiteRt.so` is not where SwiftVision looks for it.
    case runtimeNotInstalled(path: String)
    /// The library exists but cannot be loaded or lacks a function.
    case runtimeUnusable(path: String, reason: String)
    /// A model file does not exist.
    case modelNotFound(path: String)
    /// A C call returned a non-zero status.
    case status(code: Int32, meaning: String, operation: String)
    /// The model does not fit what the caller expects of it.
    case incompatibleModel(String)

    /// A one-line explanation of the failure, with the command that fixes it when there is one.
    public var description: String {
        switch self {
        case .runtimeNotInstalled(let path):
            "the LiteRT runtime is not installed (looked for \(path)); run `swiftvision setup` to install it"
        case .runtimeUnusable(let path, let reason):
            "the LiteRT runtime at \(path) cannot be used: \(reason); run `swiftvision setup` to reinstall it"
        case .modelNotFound(let path):
            "no model file at \(path); run `swiftvision setup` to install the bundled models"
        case .status(let code, let meaning, let operation):
            "LiteRT failed to \(operation): \(meaning) (status \(code))"
        case .incompatibleModel(let reason):
            "incompatible model: \(reason)"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
