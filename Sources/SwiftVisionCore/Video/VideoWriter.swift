import CVisionShim
import Foundation

/// Writes frames into a video file: H.264 in `.mp4`, `.m4v`, `.mov` and `.mkv` (what browsers play) unless
/// MPEG-4 Part 2 is asked for, Motion JPEG in `.avi`.
///
/// H.264 comes from FFmpeg's libx264 at its default preset (about 35 frames a second at 1280×720 on one
/// core); where FFmpeg has no H.264 encoder the writer falls back, silently, to MPEG-4 Part 2 ('mp4v').
/// H.264 stores even sides (4:2:0 chroma): a frame of odd width or height loses its last column or row, and
/// `width` and `height` give the size stored. Not safe for concurrent use.
public final class VideoWriter {
    /// The codec of a video in `.mp4`, `.m4v`, `.mov` or `.mkv`; `.avi` is always Motion JPEG.
    public enum Codec: Sendable {
        /// H.264, which browsers play.
        case h264
        /// MPEG-4 Part 2 ('mp4v'): about four times faster to encode, but browsers do not play it.
        case mpeg4Part2
    }

    /// The file extensions of the containers written, in lower case.
    private static let fileExtensions: Set<String> = ["mp4", "m4v", "mov", "mkv", "avi"]

    /// The video file.
    public let url: URL
    /// The stored frames' width in pixels: the width asked for, less one if odd and the codec is H.264.
    public let width: Int
    /// The stored frames' height in pixels: the height asked for, less one if odd and the codec is H.264.
    public let height: Int
    /// The size frames are scaled to before they are cut to `width` × `height`: the size asked for.
    private let frameSize: (width: Int, height: Int)
    private var writer: OpaquePointer?

    /// Creates the video file at `url`, named `.mp4`, `.m4v`, `.mov`, `.mkv` or `.avi`, for frames `width` ×
    /// `height` pixels at `framesPerSecond`, in `codec` unless it is an `.avi`.
    public init(url: URL, width: Int, height: Int, framesPerSecond: Double, codec: Codec = .h264) throws {
        let container = url.pathExtension.lowercased()
        // FFmpeg would write an image sequence's name as a broken image, and refuse WebM and GIF noisily.
        guard Self.fileExtensions.contains(container) else {
            throw VideoError.cannotWrite(path: url.path, reason: "a video is written as .mp4, .m4v, .mov, .mkv or .avi")
        }
        // OpenCV 4.6 maps 'avc1' to FFmpeg's H.264 encoder without a warning in all four containers.
        let codecs = container == "avi" ? ["MJPG"] : codec == .h264 ? ["avc1", "mp4v"] : ["mp4v"]
        for codec in codecs {
            let evenSides = codec == "avc1"
            let stored = evenSides ? (width: width & ~1, height: height & ~1) : (width: width, height: height)
            if let writer = sv_video_writer_open(url.path, codec, framesPerSecond, Int32(stored.width), Int32(stored.height)) {
                self.url = url
                self.width = stored.width
                self.height = stored.height
                self.frameSize = (width, height)
                self.writer = writer
                return
            }
        }
        throw VideoError.cannotWrite(path: url.path, reason: String(cString: sv_last_error()))
    }

    /// Appends `image`, upright, scaled to the size asked for if it differs, its odd last column or row left
    /// out in H.264.
    public func append(_ image: VisionImage) throws {
        var frame = try image.upright().converted(to: .bgr)
        if frame.width != frameSize.width || frame.height != frameSize.height {
            frame = try frame.resized(width: frameSize.width, height: frameSize.height)
        }
        guard let writer else { throw VideoError.cannotWrite(path: url.path, reason: "the writer was closed") }
        try frame.buffer.withView { whole in
            let view = whole.region(x: 0, y: 0, width: width, height: height)
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
