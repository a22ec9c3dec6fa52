import Foundation

/// The first video track of an ISO base media file (MP4, MOV, 3GP), read from its sample tables (ISO/IEC
/// 14496-12 §8): when each frame is shown, how the track turns for display and how long the movie lasts. A
/// variable frame rate is kept as the file states it, frame by frame, where FFmpeg's frame positions after
/// the decoder's delay come from the average rate (OpenCV 4.6 with FFmpeg 5.1).
///
/// Only what FFmpeg presents the same way is described: one edit, after any number of empty ones (an offset
/// that times from the first frame ignore), at normal speed; a track with more edits, a fragmented file (no
/// samples in the movie box) or a malformed table gives nil.
public struct ISOVideoTrack: ContainerVideoTrack {
    /// When each frame is shown, in milliseconds from the first, in presentation (display) order: the
    /// samples' decoding times (`stts`) plus their composition offsets (`ctts`), those the edit (`elst`)
    /// shows.
    public let presentationTimes: [Int]
    /// The clockwise quarter turns, in degrees (0, 90, 180, 270), that the track header's matrix (`tkhd`)
    /// applies for display; 0 when it is no pure quarter turn.
    public let rotation: Int
    /// The movie's duration in seconds, from the movie header (`mvhd`), as players show it.
    public let duration: Double
    /// Frames per second on average: the samples over the span of their decoding times.
    public let averageFramesPerSecond: Double
    /// Frames per second where they come fastest: the media's time scale over the shortest gap between two
    /// frames shown one after the other; a variable rate's peak, a constant one's rate.
    public let fastestFramesPerSecond: Double

    /// The most samples a track may declare (38 hours at 30 frames per second); a table claiming more is
    /// refused before anything is allocated for it.
    static let largestSampleCount = 1 << 22

    /// The first video track of the file at `url`; nil when it is not an ISO base media file, has no video
    /// track, or the track is of a kind described above as left out.
    public init?(contentsOf url: URL) {
        guard let movie = ISOBoxes.movieBox(ofFileAt: url) else { return nil }
        self.init(movie: movie)
    }

    /// The first video track of the MP4 or MOV file served at the `http:` URL `url`, its movie box (at most
    /// 16 MiB) read with range requests all answered within `timeout` (``HTTPRangeReader``); nil when the
    /// server does not serve ranges, the file is no ISO base media file, or as for a file.
    public init?(servedAt url: URL, timeout: Duration) {
        guard let file = HTTPRangeReader(url: url, timeout: timeout),
            let start = file.bytes(at: 0, count: 512), VideoContainer(header: start) == .isoMedia
        else { return nil }
        self.init(served: file)
    }

    /// The first video track of the ISO base media file that `file` reads, its movie box at most 16 MiB.
    init?(served file: HTTPRangeReader) {
        guard let movie = ISOBoxes.movieBox(size: file.size, limit: 16 << 20, read: { file.bytes(at: $0, count: $1) }) else { return nil }
        self.init(movie: movie)
    }

    /// The first video track of `movie`, the contents of a movie box.
    init?(movie bytes: ByteReader) {
        let all = 0..<bytes.count
        guard let header = ISOBoxes.firstChild("mvhd", of: all, in: bytes),
            let movieTimes = Self.timing(ofHeader: header, in: bytes)
        else { return nil }
        var videoTrack: Range<Int>?
        _ = ISOBoxes.walkChildren(of: all, in: bytes) { type, track in
            guard type == ISOBoxes.code("trak"),
                let handler = ISOBoxes.descendant(["mdia", "hdlr"], of: track, in: bytes),
                bytes.uint32(at: handler.lowerBound + 8, bigEndian: true) == ISOBoxes.code("vide")
            else { return true }
            videoTrack = track
            return false
        }
        guard let track = videoTrack,
            let media = ISOBoxes.firstChild("mdia", of: track, in: bytes),
            let mediaHeader = ISOBoxes.firstChild("mdhd", of: media, in: bytes),
            let mediaTimes = Self.timing(ofHeader: mediaHeader, in: bytes),
            let table = ISOBoxes.descendant(["minf", "stbl"], of: media, in: bytes),
            let decoding = ISOBoxes.firstChild("stts", of: table, in: bytes),
            let deltas = Self.runs(in: decoding, of: bytes, signed: false)
        else { return nil }
        var offsets: [(count: Int, value: Int)] = []
        if let composition = ISOBoxes.firstChild("ctts", of: table, in: bytes) {
            // FFmpeg reads version 0's offsets as signed too, as writers store negative ones there.
            guard let runs = Self.runs(in: composition, of: bytes, signed: true) else { return nil }
            offsets = runs
        }
        guard let edit = Self.edit(of: track, in: bytes, movieScale: movieTimes.scale, mediaScale: mediaTimes.scale),
            var times = Self.compositionTimes(deltas: deltas, offsets: offsets)
        else { return nil }
        let span = deltas.reduce(0) { $0 + $1.count * $1.value }
        times = times.filter { time in time >= edit.start && edit.end.map { time < $0 } ?? true }.sorted()
        // A span beyond 2⁵³ ms (285,000 years) is no film, and beyond Int's range in milliseconds.
        guard let first = times.first, let last = times.last, mediaTimes.scale > 0, movieTimes.scale > 0,
            Double(last - first) * 1000 / Double(mediaTimes.scale) < 0x1p53
        else { return nil }
        let scale = Double(mediaTimes.scale)
        presentationTimes = times.map { Int((Double($0 - first) * 1000 / scale).rounded()) }
        let shortestGap = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.min()
        fastestFramesPerSecond = shortestGap.map { scale / Double($0) } ?? 0
        rotation = Self.rotation(ofTrackHeader: ISOBoxes.firstChild("tkhd", of: track, in: bytes), in: bytes)
        duration = Double(movieTimes.duration) / Double(movieTimes.scale)
        averageFramesPerSecond = span > 0 ? Double(deltas.reduce(0) { $0 + $1.count }) * scale / Double(span) : 0
    }

    /// The time scale (units per second) and duration of a movie or media header (`mvhd`, `mdhd`): after the
    /// version and flags, the creation and modification times (4 bytes each in version 0, 8 in version 1),
    /// the scale, then the duration (4 or 8 bytes).
    private static func timing(ofHeader box: Range<Int>, in bytes: ByteReader) -> (scale: Int, duration: Int)? {
        let start = box.lowerBound
        guard let version = bytes.uint8(at: start) else { return nil }
        let wide = version == 1
        let scaleAt = start + 4 + (wide ? 16 : 8)
        guard let scale = bytes.uint32(at: scaleAt, bigEndian: true),
            let duration = wide ? bytes.uint64(at: scaleAt + 4, bigEndian: true) : bytes.uint32(at: scaleAt + 4, bigEndian: true).map(Int.init),
            scaleAt + (wide ? 12 : 8) <= box.upperBound
        else { return nil }
        return (Int(scale), duration)
    }

    /// The runs of a time-to-sample (`stts`) or composition offset (`ctts`) box: after the version and flags
    /// and an entry count, pairs of a sample count and a value (32 bits each). Nil when the entries run past
    /// the box or count more than ``largestSampleCount`` samples.
    private static func runs(in box: Range<Int>, of bytes: ByteReader, signed: Bool) -> [(count: Int, value: Int)]? {
        guard let entries = bytes.uint32(at: box.lowerBound + 4, bigEndian: true).map(Int.init),
            entries <= (box.count - 8) / 8
        else { return nil }
        var runs: [(count: Int, value: Int)] = []
        var total = 0
        for index in 0..<entries {
            let at = box.lowerBound + 8 + 8 * index
            guard let count = bytes.uint32(at: at, bigEndian: true), let value = bytes.uint32(at: at + 4, bigEndian: true) else { return nil }
            total += Int(count)
            guard total <= largestSampleCount else { return nil }
            runs.append((Int(count), signed ? Int(Int32(bitPattern: value)) : Int(value)))
        }
        return runs
    }

    /// Each sample's composition time in media units, in decoding order: the running sum of the decoding
    /// deltas plus the sample's composition offset. Nil when the offsets cover fewer samples than the deltas.
    private static func compositionTimes(deltas: [(count: Int, value: Int)], offsets: [(count: Int, value: Int)]) -> [Int]? {
        var times: [Int] = []
        var decodingTime = 0
        for run in deltas {
            for _ in 0..<run.count {
                times.append(decodingTime)
                decodingTime += run.value
            }
        }
        guard !offsets.isEmpty else { return times }
        var index = 0
        for run in offsets {
            for _ in 0..<run.count where index < times.count {
                times[index] += run.value
                index += 1
            }
        }
        return index == times.count ? times : nil
    }

    /// The media times the track's edit list (`trak/edts/elst`) shows: from the one edit's media time for its
    /// duration (converted from the movie's scale to the media's; no end when the duration is 0), after any
    /// empty edits (media time −1). No edit list: all of it. Nil for more than one edit, or another rate than 1.
    private static func edit(of track: Range<Int>, in bytes: ByteReader, movieScale: Int, mediaScale: Int) -> (start: Int, end: Int?)? {
        guard let list = ISOBoxes.descendant(["edts", "elst"], of: track, in: bytes) else { return (0, nil) }
        guard let version = bytes.uint8(at: list.lowerBound), let entries = bytes.uint32(at: list.lowerBound + 4, bigEndian: true)
        else { return nil }
        let entrySize = version == 1 ? 20 : 12
        guard Int(entries) <= (list.count - 8) / entrySize else { return nil }
        var shown: (start: Int, end: Int?)?
        for index in 0..<Int(entries) {
            let at = list.lowerBound + 8 + entrySize * index
            let wide = version == 1
            let mediaTime: Int? =
                wide
                ? bytes.uint64(at: at + 8, bigEndian: true).map { $0 == Int.max ? -1 : $0 }
                : bytes.uint32(at: at + 4, bigEndian: true).map { Int(Int32(bitPattern: $0)) }
            guard let duration = wide ? bytes.uint64(at: at, bigEndian: true) : bytes.uint32(at: at, bigEndian: true).map(Int.init),
                let mediaTime, let rate = bytes.uint32(at: at + (wide ? 16 : 8), bigEndian: true)
            else { return nil }
            if mediaTime == -1 { continue }
            guard shown == nil, rate == 0x0001_0000, (0..<(1 << 53)).contains(mediaTime), movieScale > 0 else { return nil }
            // An edit longer than 2⁵³ media units shows everything after its start.
            let length = (Double(duration) * Double(mediaScale) / Double(movieScale)).rounded()
            shown = (mediaTime, duration == 0 || length >= 0x1p53 ? nil : mediaTime + Int(length))
        }
        return shown ?? (0, nil)
    }

    /// The display turn of a track header's matrix (`tkhd`: after the version and flags, 20 bytes of times
    /// and IDs in version 0 or 32 in version 1, then 16 of reserved fields, layer, group and volume): (a, b,
    /// c, d) in 16.16 fixed point, x' = a·x + c·y, y' = b·x + d·y, with y downwards.
    private static func rotation(ofTrackHeader box: Range<Int>?, in bytes: ByteReader) -> Int {
        guard let box, let version = bytes.uint8(at: box.lowerBound) else { return 0 }
        let matrix = box.lowerBound + 4 + (version == 1 ? 32 : 20) + 16
        let values = [0, 1, 3, 4].map { bytes.uint32(at: matrix + 4 * $0, bigEndian: true).map { Int32(bitPattern: $0) >> 16 } }
        guard matrix + 36 <= box.upperBound, let a = values[0], let b = values[1], let c = values[2], let d = values[3] else { return 0 }
        switch (a, b, c, d) {
        case (0, 1, -1, 0): return 90
        case (-1, 0, 0, -1): return 180
        case (0, -1, 1, 0): return 270
        default: return 0
        }
    }
}
