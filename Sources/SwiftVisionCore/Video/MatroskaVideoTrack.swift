import Foundation

/// The first video track of a Matroska or WebM file, read from its blocks (the Matroska specification, RFC
/// 9559): each block's time is its cluster's time plus its own offset, a presentation time stored in decoding
/// order, so the sorted times are those of the frames as a decoder gives them. OpenCV 4.6 with FFmpeg 5.1
/// reports no frame index for Matroska (the frame count is the duration times a guessed rate, 118 for a
/// variable-rate video of 73 frames) and gives the frames the decoder held back no position.
///
/// The whole file is walked by element headers, skipping every frame's data: segment, then its information
/// (time scale, duration), tracks (the video track's number, frame duration and display turn) and clusters
/// (their time, simple blocks and block groups). Nil where the file cannot be described as FFmpeg presents
/// it, and the reader then falls back to FFmpeg's count and rate: a file cut short (an element, the segment
/// included, that runs past its parent or the file's end, as a recording stopped before it was finished
/// leaves it), a malformed element, an unknown size anywhere but a segment or cluster (a live recording's,
/// which end where the file or the next cluster does), tracks after the first cluster, no video track or
/// block, or a video block holding several frames (lacing, which FFmpeg times from the block's duration; only
/// sound is laced in practice, and sound blocks are skipped unread).
public struct MatroskaVideoTrack: ContainerVideoTrack {
    public let presentationTimes: [Int]
    /// The clockwise quarter turns, in degrees (0, 90, 180, 270), that the video track's projection asks for
    /// display: how FFmpeg writes an MP4's display matrix into Matroska and reads it back, so that OpenCV turns
    /// the frames; 0 for none, or for no pure quarter turn (a mirror image, a spherical video).
    public let rotation: Int
    /// The segment's duration (`Info/Duration`) as ffprobe shows it; without one, the span of the frames'
    /// times and the track's default frame duration.
    public let duration: Double
    /// The frames over ``duration``.
    public let averageFramesPerSecond: Double
    /// The rate of the fastest frames: one over the mean of the gaps within one tick of the shortest, since
    /// times kept in whole milliseconds (the usual scale) round a 30-a-second gap to 33 or 34 ms.
    public let fastestFramesPerSecond: Double

    private enum ID {
        static let ebml: UInt32 = 0x1A45_DFA3
        static let segment: UInt32 = 0x1853_8067
        static let info: UInt32 = 0x1549_A966
        static let timestampScale: UInt32 = 0x2A_D7B1
        static let duration: UInt32 = 0x4489
        static let tracks: UInt32 = 0x1654_AE6B
        static let trackEntry: UInt32 = 0xAE
        static let trackNumber: UInt32 = 0xD7
        static let trackType: UInt32 = 0x83
        static let defaultDuration: UInt32 = 0x23_E383
        static let trackTimestampScale: UInt32 = 0x23_314F
        static let video: UInt32 = 0xE0
        static let projection: UInt32 = 0x7670
        static let projectionType: UInt32 = 0x7671
        static let projectionPoseYaw: UInt32 = 0x7673
        static let projectionPosePitch: UInt32 = 0x7674
        static let projectionPoseRoll: UInt32 = 0x7675
        static let cluster: UInt32 = 0x1F43_B675
        static let clusterTimestamp: UInt32 = 0xE7
        static let simpleBlock: UInt32 = 0xA3
        static let blockGroup: UInt32 = 0xA0
        static let block: UInt32 = 0xA1
        /// The elements a cluster holds (RFC 9559 §5.1.3): any other ends a cluster of unknown size.
        static let clusterChildren: Set<UInt32> = [clusterTimestamp, 0x5854, 0xA7, 0xAB, simpleBlock, blockGroup, 0xAF, 0xEC, 0xBF]
    }

    /// The largest information or tracks element read (CodecPrivate lies in the tracks: a few hundred bytes).
    private static let largestHeaderElement = 1 << 22

    /// The first video track of the file at `url`; nil when it is not a Matroska or WebM file, or as said above.
    public init?(contentsOf url: URL) {
        guard let file = FileWindow(url: url) else { return nil }
        self.init(size: file.size) { file.bytes(at: $0, count: $1) }
    }

    /// The first video track of the Matroska or WebM file that `file`, a served file's range reader, reads. The blocks' headers lie all
    /// through the file, so it is walked a window of ``servedWindow`` at a time: within the reader's
    /// ``HTTPRangeReader/requestLimit`` requests, files of up to about 16 MiB are described, and larger ones,
    /// whose walk runs out of requests, are not.
    init?(served file: HTTPRangeReader) {
        file.leastRange = Self.servedWindow
        self.init(size: file.size) { file.bytes(at: $0, count: $1) }
    }

    /// The least a served file's reader asks for at a time: 1 MiB.
    static let servedWindow = 1 << 20

    /// The first video track of `data`, a whole Matroska or WebM file.
    init?(data: Data) {
        self.init(size: data.count) { offset, count in
            offset >= 0 && offset <= data.count ? data[data.startIndex + offset..<data.startIndex + Swift.min(data.count, offset + count)] : nil
        }
    }

    /// The first video track of a file of `size` bytes whose bytes `read(offset, count)` gives (fewer at its end).
    private init?(size: Int, read: (Int, Int) -> Data?) {
        func header(at offset: Int, before end: Int) -> EBMLElements.Header? {
            read(offset, 12).flatMap { EBMLElements.header(at: offset, in: ByteReader($0), before: end) }
        }
        func contents(of element: EBMLElements.Header, largest: Int) -> ByteReader? {
            guard let length = element.size, length <= largest, let bytes = read(element.contentStart, length), bytes.count == length
            else { return nil }
            return ByteReader(bytes)
        }
        guard let ebml = header(at: 0, before: size), ebml.id == ID.ebml, let ebmlEnd = ebml.contentEnd,
            let segment = header(at: ebmlEnd, before: size), segment.id == ID.segment
        else { return nil }
        let segmentEnd = segment.contentEnd ?? size
        var scale = 1_000_000
        var segmentDuration: Double?
        var track: VideoTrackEntry?
        var ticks: [Int] = []
        var position = segment.contentStart
        while position < segmentEnd {
            guard let element = header(at: position, before: segmentEnd) else { return nil }
            switch element.id {
            case ID.info:
                guard let info = contents(of: element, largest: Self.largestHeaderElement),
                    let read = Self.information(info)
                else { return nil }
                (scale, segmentDuration) = read
            case ID.tracks:
                guard track == nil, let tracks = contents(of: element, largest: Self.largestHeaderElement) else { return nil }
                track = Self.firstVideoTrack(tracks)
                guard track != nil else { return nil }
            case ID.cluster:
                guard let track, let end = Self.readCluster(element, before: segmentEnd, track: track.number, into: &ticks, header: header, read: read)
                else { return nil }
                position = end
                continue
            default:
                guard let end = element.contentEnd else { return nil }
                position = end
                continue
            }
            position = element.contentEnd!
        }
        guard let track, !ticks.isEmpty, scale > 0, track.scale > 0, track.scale.isFinite else { return nil }
        ticks.sort()
        let first = ticks[0]
        let nanosecondsPerTick = Double(scale) * track.scale
        let span = Double(ticks[ticks.count - 1] - first) * nanosecondsPerTick
        // A span beyond 2⁵³ ms (285,000 years) is no film, and beyond Int's range in milliseconds.
        guard span / 1e6 < 0x1p53 else { return nil }
        rotation = track.rotation
        presentationTimes = ticks.map { Int((Double($0 - first) * nanosecondsPerTick / 1e6).rounded()) }
        let stated = segmentDuration.map { $0 * Double(scale) / 1e9 }.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        duration = stated ?? (span + Double(track.frameDuration)) / 1e9
        averageFramesPerSecond = duration > 0 ? Double(ticks.count) / duration : 0
        let gaps = zip(ticks, ticks.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }
        if let shortest = gaps.min() {
            let near = gaps.filter { $0 <= shortest + 1 }
            fastestFramesPerSecond = 1e9 * Double(near.count) / (Double(near.reduce(0, +)) * nanosecondsPerTick)
        } else {
            fastestFramesPerSecond = 0
        }
    }

    /// The time scale (nanoseconds per tick, 1,000,000 when absent) and duration (in ticks) of an
    /// information element's contents; nil when an element of it is malformed.
    private static func information(_ info: ByteReader) -> (scale: Int, duration: Double?)? {
        var scale = 1_000_000
        var duration: Double?
        let walked = EBMLElements.walkChildren(of: 0..<info.count, in: info) { element in
            let value = info.slice(from: element.contentStart, to: element.contentEnd!)
            switch element.id {
            case ID.timestampScale:
                guard let read = EBMLElements.unsigned(value) else { return false }
                scale = read
            case ID.duration:
                guard let read = EBMLElements.float(value) else { return false }
                duration = read
            default: break
            }
            return true
        }
        return walked ? (scale, duration) : nil
    }

    /// What a track entry says of a video track: its number, default frame duration (nanoseconds, 0 when
    /// absent), time scale factor and display turn.
    private struct VideoTrackEntry {
        let number: Int
        let frameDuration: Int
        let scale: Double
        let rotation: Int
    }

    /// The first video track (type 1) among a tracks element's entries, as FFmpeg's first video stream; nil
    /// when there is none or an element is malformed.
    private static func firstVideoTrack(_ tracks: ByteReader) -> VideoTrackEntry? {
        var found: VideoTrackEntry?
        var malformed = false
        _ = EBMLElements.walkChildren(of: 0..<tracks.count, in: tracks) { entry in
            guard entry.id == ID.trackEntry else { return true }
            var number: Int?, type: Int?, frameDuration = 0, scale = 1.0, rotation = 0
            let walked = EBMLElements.walkChildren(of: entry.contentStart..<entry.contentEnd!, in: tracks) { element in
                let value = tracks.slice(from: element.contentStart, to: element.contentEnd!)
                switch element.id {
                case ID.trackNumber: number = EBMLElements.unsigned(value)
                case ID.trackType: type = EBMLElements.unsigned(value)
                case ID.defaultDuration: frameDuration = EBMLElements.unsigned(value) ?? 0
                case ID.trackTimestampScale: scale = EBMLElements.float(value) ?? 0
                case ID.video: rotation = Self.rotation(ofVideo: element.contentStart..<element.contentEnd!, in: tracks)
                default: break
                }
                return true
            }
            guard walked else {
                malformed = true
                return false
            }
            if type == 1, let number {
                found = VideoTrackEntry(number: number, frameDuration: frameDuration, scale: scale, rotation: rotation)
                return false
            }
            return true
        }
        return malformed ? nil : found
    }

    /// The clockwise display turn that a track's video settings (the `Video` element's contents, `range` of
    /// `tracks`) ask for with their projection, read as FFmpeg's Matroska reader makes it a display matrix: a
    /// rectangular projection (the default type) posed with no yaw and no pitch turns the frames
    /// counter-clockwise by its roll, in degrees, which OpenCV rounds to whole ones. 0 without a projection,
    /// and for one that is no pure quarter turn: another type (a spherical video), a yaw of 180° (a mirror
    /// image), a pitch, a roll between quarter turns or beyond a whole one, or a malformed element.
    private static func rotation(ofVideo range: Range<Int>, in tracks: ByteReader) -> Int {
        var projection: Range<Int>?
        _ = EBMLElements.walkChildren(of: range, in: tracks) { element in
            if element.id == ID.projection { projection = element.contentStart..<element.contentEnd! }
            return projection == nil
        }
        guard let projection else { return 0 }
        var type: Int? = 0, yaw: Double? = 0, pitch: Double? = 0, roll: Double? = 0
        let walked = EBMLElements.walkChildren(of: projection, in: tracks) { element in
            let value = tracks.slice(from: element.contentStart, to: element.contentEnd!)
            switch element.id {
            case ID.projectionType: type = EBMLElements.unsigned(value)
            case ID.projectionPoseYaw: yaw = EBMLElements.float(value)
            case ID.projectionPosePitch: pitch = EBMLElements.float(value)
            case ID.projectionPoseRoll: roll = EBMLElements.float(value)
            default: break
            }
            return true
        }
        guard walked, type == 0, yaw == 0, pitch == 0, let roll, abs(roll) <= 360 else { return 0 }
        let turn = (Int((-roll).rounded()) % 360 + 360) % 360
        return turn % 90 == 0 ? turn : 0
    }

    /// Adds the time (cluster time plus block offset, in ticks) of each block of track `number` in the
    /// cluster `cluster` to `ticks`, and returns where the cluster ends: its size's end, or for an unknown
    /// size the first element a cluster does not hold (or `end`, the segment's end). Nil when an element is
    /// malformed or runs past the segment, a block comes before the cluster's time, a block of the track is
    /// laced, or the frames exceed ``ISOVideoTrack/largestSampleCount``.
    private static func readCluster(
        _ cluster: EBMLElements.Header, before end: Int, track number: Int, into ticks: inout [Int],
        header: (Int, Int) -> EBMLElements.Header?, read: (Int, Int) -> Data?
    ) -> Int? {
        let clusterEnd = cluster.contentEnd ?? end
        var clusterTime: Int?
        var position = cluster.contentStart
        while position < clusterEnd {
            guard let element = header(position, clusterEnd) else { return nil }
            if cluster.size == nil, !ID.clusterChildren.contains(element.id) { return position }
            guard let elementEnd = element.contentEnd else { return nil }
            switch element.id {
            case ID.clusterTimestamp:
                guard let bytes = read(element.contentStart, element.size!), bytes.count == element.size!,
                    let time = EBMLElements.unsigned(ByteReader(bytes)), time < 1 << 53
                else { return nil }
                clusterTime = time
            case ID.simpleBlock, ID.blockGroup:
                var block = element
                if element.id == ID.blockGroup {
                    // The group's block is found by the headers of the group's elements.
                    var inner = element.contentStart
                    var found: EBMLElements.Header?
                    while inner < elementEnd, found == nil {
                        guard let child = header(inner, elementEnd), let childEnd = child.contentEnd else { return nil }
                        if child.id == ID.block { found = child }
                        inner = childEnd
                    }
                    guard let found else { break }
                    block = found
                }
                // A block opens with its track number (a variable-length integer), a signed 16-bit time
                // offset and a byte of flags, of which bits 1 and 2 give the lacing.
                guard let bytes = read(block.contentStart, Swift.min(block.size!, 11)),
                    let track = EBMLElements.variableInteger(at: 0, of: ByteReader(bytes), longest: 8),
                    let offset = ByteReader(bytes).uint16(at: track.length, bigEndian: true),
                    let flags = ByteReader(bytes).uint8(at: track.length + 2)
                else { return nil }
                guard track.value == number else { break }
                guard let clusterTime, flags & 0x06 == 0, ticks.count < ISOVideoTrack.largestSampleCount else { return nil }
                ticks.append(clusterTime + Int(Int16(bitPattern: offset)))
            default:
                break
            }
            position = elementEnd
        }
        return clusterEnd
    }
}
