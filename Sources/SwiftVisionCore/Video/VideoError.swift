import Foundation

/// Why a video could not be read or written.
public enum VideoError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    case cannotOpen(path: String, reason: String)
    case unreadableFrame(path: String, index: Int, reason: String)
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open video \(path): \(reason)"
        case .unreadableFrame(let path, let index, let reason): "cannot read frame \(index) of \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write video \(path): \(reason)"
        }
    }

    public var errorDescription: String? { description }
}
