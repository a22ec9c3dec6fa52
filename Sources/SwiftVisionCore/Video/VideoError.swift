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

    /// A one-line explanation of the error, naming the video.
    public var description: String { description(namingVideo: true) }

    /// A one-line explanation of the error; without the path of the video read when `namingVideo` is false,
    /// for a message that names it already (the command line's `INPUT: explanation`, as for a photo). A
    /// video that cannot be written is always named: it is not the one read.
    public func description(namingVideo: Bool) -> String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open " + (namingVideo ? "video \(path)" : "the video") + ": \(reason)"
        case .unreadableFrame(let path, let index, let reason): "cannot read frame \(index)" + (namingVideo ? " of \(path)" : "") + ": \(reason)"
        case .cannotWrite(let path, let reason): "cannot write video \(path): \(reason)"
        case .endedEarly(let path, let read, let announced):
            (namingVideo ? "\(path) ended" : "it ended") + " after \(read) of the \(announced) frames its container announces: it is cut short or damaged"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
