import Foundation

/// Why ``ObjectDetector`` refused a frame.
public enum ObjectDetectorError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// With ``ObjectDetectorOptions/alwaysDiscardsLateVideoFrames``, a frame arrived while another was processed.
    case frameDropped
    /// Video frames must come with increasing timestamps.
    case nonIncreasingTimestamp(previous: Int, current: Int)

    public var description: String {
        switch self {
        case .frameDropped: "the frame arrived while the previous one was processed and was dropped"
        case .nonIncreasingTimestamp(let previous, let current):
            "video timestamps must increase: \(current) ms follows \(previous) ms"
        }
    }

    public var errorDescription: String? { description }
}
