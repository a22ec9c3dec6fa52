import SwiftVisionCore
import SwiftVisionRuntime

/// How a MediaPipe-style task receives its images.
public enum RunningMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// Single images, each on its own.
    case image
    /// The frames of a video, in order, with increasing timestamps; each call returns its result.
    case video
    /// Frames of a live source: calls return at once and results arrive asynchronously. One frame is
    /// processed at a time; the newest one that comes meanwhile waits, older ones are dropped.
    case liveStream
}
