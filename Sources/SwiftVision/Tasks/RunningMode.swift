/// How a MediaPipe-style task receives its images.
public enum RunningMode: String, Sendable, Hashable, CaseIterable {
    /// Single images, each on its own.
    case image
    /// The frames of a video, in order, with increasing timestamps; each call returns its result.
    case video
    /// Frames of a live source: calls return at once, results arrive asynchronously, and a frame that
    /// comes while another is processed is dropped.
    case liveStream
}
