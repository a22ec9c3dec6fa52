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

/// Reads a video file, a network stream (RTSP, HTTP) or a camera frame by frame (OpenCV's FFmpeg and
/// V4L2 backends). Not safe for concurrent use.
public final class VideoReader: Sequence, IteratorProtocol {
    /// The video file or stream; `camera:N` for a camera.
    public let url: URL
    /// Whether frames come from a live source (a camera, an RTSP or RTMP stream, or an HTTP stream with no
    /// length, such as a camera's MJPEG): timestamps are arrival times, counted from the first frame's (0).
    /// A video file served over HTTP, whose frames FFmpeg counts, is timed as a file is.
    public let isLive: Bool
    /// The frames' width in pixels.
    public let width: Int
    /// The frames' height in pixels.
    public let height: Int
    /// Frames per second as the container reports it (30 when it reports none).
    public let framesPerSecond: Double
    /// The rate a copy of the video keeps its frames' times at when each is repeated until the next is due:
    /// for a file whose ``track`` shows frames clearly faster somewhere than ``framesPerSecond`` says (over
    /// 5 %: a variable rate, which FFmpeg reports as its average), that peak rate; else ``framesPerSecond``.
    public private(set) var steadyFramesPerSecond: Double
    /// The container's frame count (a Matroska or WebM file's with a ``track``: its blocks); may be an
    /// estimate, or 0 when unknown.
    public var reportedFrameCount: Int {
        if isLive { return 0 }
        if let blocks = track as? MatroskaVideoTrack { return blocks.presentationTimes.count }
        return ffmpegFrameCount
    }
    /// FFmpeg's count of the frames: the container's own, or its estimate from the duration and the rate.
    private let ffmpegFrameCount: Int
    /// Whether ``reportedFrameCount`` comes from an index of the frames (MP4, MOV, 3GP, AVI, or a Matroska
    /// file's blocks), so that a video ending well before it is cut short; elsewhere (transport streams,
    /// ASF, a Matroska file whose blocks could not be read) FFmpeg estimates it from the duration and the
    /// frame rate, which a variable frame rate or a stream without a duration puts far off (a screen
    /// recording's WebM: 222 announced, 142 frames, all of them read).
    private var indexesFrames: Bool { container == .isoMedia || container == .avi || track is MatroskaVideoTrack }
    /// The file's container, told by its first bytes; nil for streams, cameras and containers not told so.
    public let container: VideoContainer?
    /// The file's first video track as its container describes it, read when the file is opened: an MP4's
    /// or MOV's sample tables (``ISOVideoTrack``: frames, times, rate, duration, turn), a Matroska or WebM
    /// file's blocks and projection (``MatroskaVideoTrack``), also of one served over `http:` by a server that
    /// answers range requests; nil for other containers, live streams, and files that cannot be described
    /// so (see each type).
    public private(set) var track: (any ContainerVideoTrack)?
    /// Whether frames are still timed by ``track``'s presentation times: until a frame's own position
    /// disagrees with them (a frame the decoder dropped, which would shift every later time).
    public private(set) var timesFollowTrack: Bool
    private let reader: OpaquePointer
    /// The path, URL or camera the frames come from, for messages.
    private let name: String
    private var nextIndex = 0
    private var lastTimestamp = -1
    /// The time between the last two frames, in milliseconds; nil before the second frame.
    private var lastGap: Int?
    /// When the first frame arrived; nil before it.
    private var firstArrival: ContinuousClock.Instant?
    /// The error that ended iteration early, if any.
    public private(set) var error: VideoError?

    /// How long FFmpeg may take to open a file or a network stream (connection, the server's answers, the
    /// first packets) before the open fails and the stream is diagnosed: 10 s, where OpenCV's own is 30 s.
    public static let openTimeout = Duration.seconds(10)
    /// How long a frame may take to arrive from an open file or stream before reading ends: 10 s, where
    /// OpenCV's own is 30 s; a live source that falls silent this long has ended.
    public static let readTimeout = Duration.seconds(10)

    /// Opens the video file at `url`, or the network stream at an `rtsp:`, `rtmp:`, `http:` or `https:`
    /// URL, refusing frames larger than `limits`.
    public convenience init(url: URL, limits: ImageLimits = .default) throws {
        let isStream = url.scheme.map { ["rtsp", "rtsps", "rtmp", "http", "https", "udp", "tcp"].contains($0.lowercased()) } ?? false
        let location = isStream ? url.absoluteString : url.path
        if !isStream, let problem = FileReadability.problem(atPath: url.path, refusingEmpty: true) {
            throw VideoError.cannotOpen(path: url.path, reason: problem)
        }
        let container = isStream ? nil : VideoContainer(contentsOf: url)
        var track: (any ContainerVideoTrack)?
        if container == .isoMedia {
            track = ISOVideoTrack(contentsOf: url)
        } else if container == .matroska {
            track = MatroskaVideoTrack(contentsOf: url)
        }
        try self.init(url: url, name: location, isLive: isStream, container: container, track: track, limits: limits) {
            sv_video_reader_open(
                location, Int32(clamping: Self.openTimeout.wholeMilliseconds), Int32(clamping: Self.readTimeout.wholeMilliseconds))
        }
        // A file FFmpeg opened over HTTP (a stream that is not live) is read again only for its index.
        if isStream, !isLive, let served = Self.servedTrack(at: url) {
            self.track = served
            timesFollowTrack = true
        }
        if let track = self.track, track.fastestFramesPerSecond > framesPerSecond * 1.05 {
            steadyFramesPerSecond = track.fastestFramesPerSecond
        }
    }

    /// The first video track of the MP4, MOV, Matroska or WebM file served at the `http:` URL `url`, read with
    /// range requests all answered within ``openTimeout`` (``HTTPRangeReader``): an MP4's or MOV's movie box, a
    /// Matroska file's element headers; nil for other containers and servers that do not answer range
    /// requests.
    private static func servedTrack(at url: URL) -> (any ContainerVideoTrack)? {
        guard let file = HTTPRangeReader(url: url, timeout: openTimeout), let start = file.bytes(at: 0, count: 512) else { return nil }
        switch VideoContainer(header: start) {
        case .isoMedia: return ISOVideoTrack(served: file)
        case .matroska: return MatroskaVideoTrack(served: file)
        default: return nil
        }
    }

    /// Opens camera `index` (`/dev/videoN`, V4L2), refusing frames larger than `limits`.
    public convenience init(camera index: Int, limits: ImageLimits = .default) throws {
        let name = "camera:\(index)"
        try self.init(url: URL(string: name)!, name: name, isLive: true, container: nil, track: nil, limits: limits) {
            sv_video_reader_open_camera(Int32(clamping: index))
        }
    }

    private init(
        url: URL, name: String, isLive: Bool, container: VideoContainer?, track: (any ContainerVideoTrack)?, limits: ImageLimits,
        open: () -> OpaquePointer?
    ) throws {
        let opening = ContinuousClock.now
        guard let reader = open() else {
            let openTook = ContinuousClock.now - opening
            // A sound file in a container that also holds videos (an `.m4a`, an Ogg Vorbis file) is named as such.
            let header = url.isFileURL ? FileReadability.firstBytes(of: url, count: 512) : nil
            if let audio = header.flatMap(UnsupportedFormat.init(data:)), audio.isAudio {
                throw VideoError.cannotOpen(path: name, reason: audio.explanation)
            }
            // As FFmpeg says "moov atom not found": an MP4 or MOV whose recording stopped before its index was written.
            if container == .isoMedia, ISOBoxes.isCutBeforeMovieBox(ofFileAt: url) {
                throw VideoError.cannotOpen(
                    path: name, reason: "it is cut short before its index (the movie box, moov): a recording stopped before it was finished, or an incomplete copy")
            }
            // A stream is reached again to say what went wrong: a refused connection, a 404, a silent server;
            // within what is left of the open's time-out (a second after an open that ran it out, not 5 s more).
            let waited = openTook.inMilliseconds / 1000
            let step = StreamConnectionProblem.stepTimeout(afterOpenTaking: waited, timeout: Self.openTimeout.inMilliseconds / 1000)
            if !url.isFileURL, let problem = StreamConnectionProblem.diagnose(url, timeout: step, waited: waited) {
                throw VideoError.cannotOpen(path: name, reason: problem)
            }
            throw VideoError.cannotOpen(path: name, reason: String(cString: sv_last_error()))
        }
        var width: Int32 = 0, height: Int32 = 0, fps = 0.0, count: Int64 = 0
        sv_video_reader_properties(reader, &width, &height, &fps, &count)
        guard width > 0, height > 0 else {
            // As FFmpeg opens an MP4 whose index follows its frames when it cannot seek (a plain web server).
            sv_video_reader_close(reader)
            throw VideoError.cannotOpen(path: name, reason: "FFmpeg finds no frame size in it")
        }
        do {
            try limits.check(width: Int(width), height: Int(height))
        } catch {
            sv_video_reader_close(reader)
            throw VideoError.cannotOpen(path: name, reason: "\(error)")
        }
        self.url = url
        self.name = name
        let servedFile = ["http", "https"].contains(url.scheme?.lowercased() ?? "") && count > 0
        self.isLive = isLive && !servedFile
        self.container = container
        self.track = track
        timesFollowTrack = track != nil
        self.reader = reader
        self.width = Int(width)
        self.height = Int(height)
        framesPerSecond = fps > 0 && fps.isFinite ? fps : 30
        steadyFramesPerSecond = framesPerSecond
        ffmpegFrameCount = Swift.max(0, Int(count))
    }

    /// The next frame; nil at the end of the video or after a damaged frame (see ``error``).
    public func next() -> VideoFrame? {
        guard error == nil else { return nil }
        // A frame read whole writes every pixel, so its buffer is not zeroed first.
        var position = 0.0
        switch PixelBuffer.filled(format: .bgr, width: width, height: height, by: { sv_video_reader_read(reader, $0, &position) }) {
        case (let buffer?, _):
            // Live sources are timed by arrival; files with a track by its times, where FFmpeg gives the last
            // frames, those the decoder held back, no position (0); containers without timestamps report 0:
            // fall back to the frame rate. Time always increases.
            let fromRate = Int((Double(nextIndex) * 1000 / framesPerSecond).rounded())
            let now = ContinuousClock.now
            let arrival = (now - (firstArrival ?? now)).wholeMilliseconds
            if firstArrival == nil { firstArrival = now }
            var measured = isLive ? arrival : position > 0 ? Int(position.rounded()) : fromRate
            if !isLive, position <= 0, let lastGap, lastGap > 0, abs(fromRate - (lastTimestamp + lastGap)) * 2 > lastGap {
                // The average rate puts a frame without a position more than half a gap away from where the
                // video's last gap continues: the rate varies (a phone's video in Matroska), and the last one holds.
                measured = lastTimestamp + lastGap
            }
            if timesFollowTrack, let times = track?.presentationTimes, nextIndex < times.count {
                if position > 0, abs(measured - times[nextIndex]) > 1 { timesFollowTrack = false } else { measured = times[nextIndex] }
            }
            let timestamp = Swift.max(measured, lastTimestamp + 1)
            defer { nextIndex += 1 }
            lastGap = nextIndex > 0 ? timestamp - lastTimestamp : nil
            lastTimestamp = timestamp
            return VideoFrame(image: VisionImage(buffer: buffer), index: nextIndex, timestampInMilliseconds: timestamp)
        case (nil, 1):
            // An index may count a frame or two the decoder drops, so only a clear shortfall is an error.
            if indexesFrames, reportedFrameCount > 0, nextIndex < reportedFrameCount - Swift.max(2, reportedFrameCount / 20) {
                error = .endedEarly(path: name, read: nextIndex, announced: reportedFrameCount)
            } else if nextIndex == 0 {
                // A source that opens and gives nothing, such as an MP4 with its index at the end read from a
                // server that cannot seek, is an error, not an empty video.
                error = .unreadableFrame(path: name, index: 0, reason: "the video ended before its first frame")
            }
            return nil
        default:
            error = .unreadableFrame(path: name, index: nextIndex, reason: String(cString: sv_last_error()))
            return nil
        }
    }

    deinit {
        sv_video_reader_close(reader)
    }
}
