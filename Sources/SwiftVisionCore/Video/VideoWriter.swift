import CVisionShim
import Foundation

/// Writes frames into a video file: MPEG-4 Part 2 in `.mp4`, `.m4v`, `.mov` and `.mkv`, Motion JPEG in `.avi`.
/// Not safe for concurrent use.
public final class VideoWriter {
    /// The file extensions of the containers written, in lower case.
    private static let fileExtensions: Set<String> = ["mp4", "m4v", "mov", "mkv", "avi"]

    /// The video file.
    public let url: URL
    /// The frames' width in pixels.
    public let width: Int
    /// The frames' height in pixels.
    public let height: Int
    private var writer: OpaquePointer?

    /// Creates the video file at `url`, named `.mp4`, `.m4v`, `.mov`, `.mkv` or `.avi`, for frames `width` ×
    /// `height` pixels at `framesPerSecond`.
    public init(url: URL, width: Int, height: Int, framesPerSecond: Double) throws {
        let container = url.pathExtension.lowercased()
        // FFmpeg would write an image sequence's name as a broken image, and refuse WebM and GIF noisily.
        guard Self.fileExtensions.contains(container) else {
            throw VideoError.cannotWrite(path: url.path, reason: "a video is written as .mp4, .m4v, .mov, .mkv or .avi")
        }
        let codec = container == "avi" ? "MJPG" : "mp4v"
        guard let writer = sv_video_writer_open(url.path, codec, framesPerSecond, Int32(width), Int32(height)) else {
            throw VideoError.cannotWrite(path: url.path, reason: String(cString: sv_last_error()))
        }
        self.url = url
        self.width = width
        self.height = height
        self.writer = writer
    }

    /// Appends `image`, upright, scaled to the video's size if it differs.
    public func append(_ image: VisionImage) throws {
        var frame = try image.upright().converted(to: .bgr)
        if frame.width != width || frame.height != height { frame = try frame.resized(width: width, height: height) }
        guard let writer else { throw VideoError.cannotWrite(path: url.path, reason: "the writer was closed") }
        try frame.buffer.withView { view in
            guard sv_video_writer_write(writer, view) == 0 else {
                throw VideoError.cannotWrite(path: url.path, reason: String(cString: sv_last_error()))
            }
        }
    }

    /// Finishes the file; also done when the writer is released.
    public func close() {
        if let writer { sv_video_writer_close(writer) }
        writer = nil
    }

    deinit {
        close()
    }
}
