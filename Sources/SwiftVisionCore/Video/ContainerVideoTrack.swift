/// A video track as its container's own index describes it, read from the file without decoding: when each
/// frame is shown, how the frames turn for display, how long the video lasts and how fast its frames come. An MP4's or MOV's sample tables
/// (``ISOVideoTrack``) and a Matroska or WebM file's blocks (``MatroskaVideoTrack``) give one.
public protocol ContainerVideoTrack: Sendable {
    /// When each frame is shown, in milliseconds from the first, in presentation (display) order: the order
    /// in which a decoder gives the frames.
    var presentationTimes: [Int] { get }
    /// The clockwise quarter turns, in degrees (0, 90, 180, 270), that the container asks for display: an MP4's
    /// or MOV's track header matrix, a Matroska file's projection pose; 0 when it asks for none or for no pure
    /// quarter turn (a mirror image).
    var rotation: Int { get }
    /// The video's duration in seconds, as players show it.
    var duration: Double { get }
    /// Frames per second on average over the video.
    var averageFramesPerSecond: Double { get }
    /// Frames per second where they come fastest: a variable rate's peak, a constant one's rate.
    var fastestFramesPerSecond: Double { get }
}
