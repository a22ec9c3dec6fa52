import CVisionShim
import Foundation

/// One decoded frame of a video.
public struct VideoFrame: Sendable {
    /// The frame, upright, in BGR.
    public let image: VisionImage
    /// Position of the frame, from 0.
    public let index: Int
    /// Presentation time in milliseconds.
    public let timestampInMilliseconds: Int
}

/// Reads a video file frame by frame (OpenCV's FFmpeg backend). Not safe for concurrent use.
public final class VideoReader: Sequence, IteratorProtocol {
    /// The video file.
    public let url: URL
    /// The frames' width in pixels.
    public let width: Int
    /// The frames' height in pixels.
    public let height: Int
    /// Frames per second as the container reports it (30 when it reports none).
    public let framesPerSecond: Double
    /// The container's frame count; may be an estimate, or 0 when unknown.
    public let reportedFrameCount: Int
    private let reader: OpaquePointer
    private var nextIndex = 0
    private var lastTimestamp = -1
    /// The error that ended iteration early, if any.
    public private(set) var error: VideoError?

    /// Opens the video at `url`, refusing frames larger than `limits`.
    public init(url: URL, limits: ImageLimits = .default) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw VideoError.cannotOpen(path: url.path, reason: "no such file")
        }
        guard let reader = sv_video_reader_open(url.path) else {
            throw VideoError.cannotOpen(path: url.path, reason: String(cString: sv_last_error()))
        }
        var width: Int32 = 0, height: Int32 = 0, fps = 0.0, count: Int64 = 0
        sv_video_reader_properties(reader, &width, &height, &fps, &count)
        do {
            try limits.check(width: Int(width), height: Int(height))
        } catch {
            sv_video_reader_close(reader)
            throw VideoError.cannotOpen(path: url.path, reason: "\(error)")
        }
        self.url = url
        self.reader = reader
        self.width = Int(width)
        self.height = Int(height)
        framesPerSecond = fps > 0 && fps.isFinite ? fps : 30
        reportedFrameCount = Swift.max(0, Int(count))
    }

    /// The next frame; nil at the end of the video or after a damaged frame (see ``error``).
    public func next() -> VideoFrame? {
        guard error == nil else { return nil }
        var buffer = PixelBuffer(zeroedFormat: .bgr, width: width, height: height)
        var position = 0.0
        let status = buffer.withMutableView { sv_video_reader_read(reader, $0, &position) }
        switch status {
        case 0:
            // Containers without timestamps report 0: fall back to the frame rate, and keep time increasing.
            let fromRate = Int((Double(nextIndex) * 1000 / framesPerSecond).rounded())
            let timestamp = Swift.max(position > 0 ? Int(position.rounded()) : fromRate, lastTimestamp + 1)
            defer { nextIndex += 1 }
            lastTimestamp = timestamp
            return VideoFrame(image: VisionImage(buffer: buffer), index: nextIndex, timestampInMilliseconds: timestamp)
        case 1:
            return nil
        default:
            error = .unreadableFrame(path: url.path, index: nextIndex, reason: String(cString: sv_last_error()))
            return nil
        }
    }

    deinit {
        sv_video_reader_close(reader)
    }
}
