import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore

/// Frames of MP4, MOV, Matroska and WebM files are timed as the file states, frame by frame: the files come
/// from Debian's `ffmpeg` and the truth is what `ffprobe` says of them (Tests/Python/Reference/video_timing.py):
/// each frame's `pts_time`, the display matrix's rotation, the frame count, average rate and duration.
@Suite struct VideoTimingTests {
    struct Probe: Decodable {
        let file: String
        let times: [Int]
        let width: Int
        let height: Int
        let frames: Int
        let framesPerSecond: Double
        let rotation: Int
        let duration: Double?

        var isMatroska: Bool { file.hasSuffix(".mkv") || file.hasSuffix(".webm") }
    }

    static func files() throws -> (folder: URL, probes: [Probe]) {
        let folder = try Fixtures.temporaryDirectory()
        let probes = try JSONDecoder().decode([Probe].self, from: try Fixtures.referenceOutput("video_timing.py", [folder.path]))
        try #require(probes.count == 13)
        return (folder, probes)
    }

    /// Every frame's timestamp is ffprobe's presentation time, the last ones of a variable-rate video
    /// included (OpenCV 4.6 with FFmpeg 5.1 gives the frames the decoder held back no position, and they were
    /// timed by the average rate: 2201 and 2249 ms where ffprobe says 2300 and 2400; in bframes.mkv by the
    /// last gap, 3899 and 3965 ms where ffprobe says 3867 and 3900), in MP4 and MOV from the sample tables, in
    /// Matroska and WebM from the blocks, live recordings' included; constant-rate files too.
    @Test func framesAreTimedAsTheFileStates() throws {
        let (folder, probes) = try Self.files()
        defer { try? FileManager.default.removeItem(at: folder) }
        for probe in probes {
            let reader = try VideoReader(url: folder.appendingPathComponent(probe.file))
            #expect(reader.track?.presentationTimes == probe.times, "\(probe.file)")
            #expect((reader.track is MatroskaVideoTrack) == probe.isMatroska, "\(probe.file)")
            let times = reader.map(\.timestampInMilliseconds)
            #expect(reader.error == nil)
            #expect(times == probe.times, "\(probe.file)")
            #expect(reader.timesFollowTrack, "\(probe.file)")
        }
    }

    /// A Matroska file's blocks give ffprobe's figures: the frame count, the segment's duration (live.webm,
    /// which has none, the span of its frames and their default duration: what ffprobe says of vp9.webm, the
    /// same frames written to a file), the average rate as frames over that duration, and the fastest rate,
    /// that of the first part, 30 frames a second, where the times kept in whole milliseconds are 33 or 34 ms
    /// apart; the display turn FFmpeg 9 wrote as the track's projection (turned.mkv, turned.webm), which
    /// ffprobe counts counter-clockwise; and a reader copies a drawing at that rate where FFmpeg reports a
    /// slower one.
    @Test func matroskaTracksAreDescribedAsFFprobeDescribesThem() throws {
        let (folder, probes) = try Self.files()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sameFramesWithADuration = try #require(probes.first { $0.file == "vp9.webm" }?.duration)
        for probe in probes where probe.isMatroska {
            let url = folder.appendingPathComponent(probe.file)
            let track = try #require(MatroskaVideoTrack(contentsOf: url), "\(probe.file)")
            let duration = probe.duration ?? sameFramesWithADuration
            #expect(track.presentationTimes == probe.times && probe.times.count == probe.frames, "\(probe.file)")
            #expect(abs(track.duration - duration) < 0.001, "\(probe.file): \(track.duration)")
            #expect(abs(track.averageFramesPerSecond - Double(probe.frames) / duration) < 0.01, "\(probe.file)")
            #expect(track.rotation == (360 - probe.rotation) % 360, "\(probe.file)")
            let fastest = ["cfr.mkv", "turned.mkv"].contains(probe.file) ? 25.0 : 30.0
            #expect(abs(track.fastestFramesPerSecond - fastest) < 0.01, "\(probe.file): \(track.fastestFramesPerSecond)")
            let reader = try VideoReader(url: url)
            #expect(reader.reportedFrameCount == probe.frames, "\(probe.file)")
            #expect(abs(reader.steadyFramesPerSecond - max(fastest, reader.framesPerSecond)) < 0.01, "\(probe.file)")
        }
    }

    /// A Matroska file cut short (bframes.mkv cut at two thirds: its segment and last cluster run past its
    /// end, as a recording stopped before it was finished leaves them) is not described from its blocks; it
    /// is read as before, from FFmpeg's positions and rate, every frame it holds whole in order of time.
    @Test func aCutMatroskaFileFallsBackToFFmpegsTimes() throws {
        let (folder, probes) = try Self.files()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try Data(contentsOf: folder.appendingPathComponent("bframes.mkv"))
        let cut = folder.appendingPathComponent("cut.mkv")
        try data.prefix(data.count * 2 / 3).write(to: cut)
        #expect(MatroskaVideoTrack(contentsOf: cut) == nil)
        #expect(MatroskaVideoTrack(data: data)?.presentationTimes == probes.first { $0.file == "bframes.mkv" }?.times)
        let reader = try VideoReader(url: cut)
        #expect(reader.track == nil && !reader.timesFollowTrack)
        let times = reader.map(\.timestampInMilliseconds)
        #expect(times.count > 20 && times == times.sorted(), "\(times)")
    }

    /// The track's sample tables give ffprobe's figures: frame count, average rate, the container's
    /// duration and the display turn (ffprobe counts it counter-clockwise, the track here clockwise).
    @Test func theTrackIsDescribedAsFFprobeDescribesIt() throws {
        let (folder, probes) = try Self.files()
        defer { try? FileManager.default.removeItem(at: folder) }
        for probe in probes where !probe.isMatroska {
            let track = try #require(ISOVideoTrack(contentsOf: folder.appendingPathComponent(probe.file)), "\(probe.file)")
            #expect(track.presentationTimes == probe.times, "\(probe.file)")
            #expect(abs(track.averageFramesPerSecond - probe.framesPerSecond) < 1e-9, "\(probe.file)")
            #expect(abs(track.duration - (probe.duration ?? 0)) < 1e-6, "\(probe.file)")
            #expect(track.rotation == (360 - probe.rotation) % 360, "\(probe.file)")
        }
    }

    /// The tables' 64-bit fields (version 1 headers and edits) are read whole; the all-ones media time of
    /// an empty edit, and any value from 2⁶³ on, as Int.max; a field running past the data as none.
    @Test func sixtyFourBitFieldsAreReadWhole() {
        let bytes = ByteReader(Data([0, 0, 0, 1, 0, 0, 0, 2] + Array(repeating: 0xFF, count: 8) + [0x80, 0, 0, 0, 0, 0, 0, 0]))
        #expect(bytes.uint64(at: 0, bigEndian: true) == 1 << 32 | 2)
        #expect(bytes.uint64(at: 0, bigEndian: false) == 0x0200_0000_0100_0000)
        #expect(bytes.uint64(at: 8, bigEndian: true) == .max)
        #expect(bytes.uint64(at: 16, bigEndian: true) == .max)
        #expect(bytes.uint64(at: 17, bigEndian: true) == nil)
    }

    /// Each 4 bytes of the movie box set to sizes and counts that run past their box, fall below a header,
    /// call for the 64-bit form or claim billions of samples give a description or none; nothing crashes,
    /// reads out of bounds or allocates for a count the box cannot hold.
    @Test func damagedTablesAreNeverTrusted() throws {
        let (folder, _) = try Self.files()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try Data(contentsOf: folder.appendingPathComponent("vfr.mp4"))
        let start = try #require(data.range(of: Data("moov".utf8))).upperBound
        let movie = data[start...]
        #expect(ISOVideoTrack(movie: ByteReader(Data(movie)))?.presentationTimes.count == 45)
        for offset in stride(from: 0, to: movie.count - 4, by: 1) {
            for value: UInt32 in [0, 1, 7, 0x7FFF_FFFF, 0xFFFF_FFFF, UInt32(movie.count - offset + 1)] {
                var damaged = Data(movie)
                withUnsafeBytes(of: value.bigEndian) { damaged.replaceSubrange(offset..<offset + 4, with: $0) }
                let track = ISOVideoTrack(movie: ByteReader(damaged))
                #expect(track == nil || track!.presentationTimes.count <= ISOVideoTrack.largestSampleCount)
            }
        }
    }

    /// Each 4 bytes of a Matroska file (bframes.mkv, and turned.mkv for its projection; every third offset) set to values that make IDs and sizes
    /// invalid (a first byte of 0), unknown (all ones), 8 bytes long, huge or running just past their parent
    /// give a description or none; nothing crashes, reads out of bounds or loops, and no more frames are
    /// found than the data holds elements of a block's least size (a 2-byte header and a 4-byte block header),
    /// and no turn but a quarter one.
    @Test(arguments: ["bframes.mkv", "turned.mkv"])
    func damagedMatroskaElementsAreNeverTrusted(file: String) throws {
        let (folder, probes) = try Self.files()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try Data(contentsOf: folder.appendingPathComponent(file))
        let frames = try #require(probes.first { $0.file == file }?.frames)
        #expect(MatroskaVideoTrack(data: data)?.presentationTimes.count == frames)
        for offset in stride(from: 0, to: data.count - 4, by: 3) {
            for value: UInt32 in [0, 0xFFFF_FFFF, 0x0100_0000, 0x7FFF_FFFF, 0x8100_0000 | UInt32(data.count - offset)] {
                var damaged = data
                withUnsafeBytes(of: value.bigEndian) { damaged.replaceSubrange(offset..<offset + 4, with: $0) }
                let track = MatroskaVideoTrack(data: damaged)
                #expect(track == nil || track!.presentationTimes.count <= damaged.count / 6 && [0, 90, 180, 270].contains(track!.rotation))
            }
        }
    }
}
