import Foundation

/// Why ``FaceDetector`` refused a frame.
public enum FaceDetectorError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Video frames must come with increasing timestamps, as MediaPipe requires.
    case nonIncreasingTimestamp(previous: Int, current: Int)
    /// The detector was closed.
    case closed

    public var description: String {
        switch self {
        case .nonIncreasingTimestamp(let previous, let current):
            "video timestamps must increase: \(current) ms follows \(previous) ms"
        case .closed: "the face detector was closed"
        }
    }

    public var errorDescription: String? { description }
}
