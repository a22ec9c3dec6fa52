import Foundation

/// Why a video could not be read or written.
public enum VideoError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The video at `path` is missing, in an unreadable format or too large.
    case cannotOpen(path: String, reason: String)
    /// The frame at `index` (from 0) of the video at `path` could not be decoded.
    case unreadableFrame(path: String, index: Int, reason: String)
    /// The video at `path` could not be created or written to.
    case cannotWrite(path: String, reason: String)
    /// The video file at `path` ended after `read` frames although its container announces `announced`:
    /// it is cut short or damaged.
    case endedEarly(path: String, read: Int, announced: Int)

    /// A one-line explanation of the error.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open video \(path): \(reason)"
        case .unreadableFrame(let path, let index, let reason): "cannot read frame \(index) of \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write video \(path): \(reason)"
        case .endedEarly(let path, let read, let announced):
            "\(path) ended after \(read) of the \(announced) frames its container announces: it is cut short or damaged"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
