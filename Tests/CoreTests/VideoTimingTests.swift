import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore

/// Frames of MP4 and MOV files are timed as the file states, frame by frame: the files come from Debian's
/// `ffmpeg` and the truth is what `ffprobe` says of them (Tests/Python/Reference/video_timing.py): each
/// frame's `pts_time`, the display matrix's rotation, the frame count, average rate and duration.
@Suite struct VideoTimingTests {
    struct Probe: Decodable {
        let file: String
        let times: [Int]
        let width: Int
        let height: Int
        let frames: Int
        let framesPerSecond: Double
        let rotation: Int
        let duration: Double
    }

    static func files() throws -> (folder: URL, probes: [Probe]) {
        let folder = try Fixtures.temporaryDirectory()
        let probes = try JSONDecoder().decode([Probe].self, from: try Fixtures.referenceOutput("video_timing.py", [folder.path]))
        try #require(probes.count == 6)
        return (folder, probes)
    }

    /// Every frame's timestamp is ffprobe's presentation time, the last ones of a variable-rate video
    /// included (OpenCV 4.6 with FFmpeg 5.1 gives the frames the decoder held back no position, and they were
    /// timed by the average rate: 2201 and 2249 ms where ffprobe says 2300 and 2400), in MP4 and MOV from the
    /// sample tables, in Matroska by the rate the video last had; constant-rate files too.
    @Test func framesAreTimedAsTheFileStates() throws {
        let (folder, probes) = try Self.files()
        defer { try? FileManager.default.removeItem(at: folder) }
        for probe in probes {
            let reader = try VideoReader(url: folder.appendingPathComponent(probe.file))
            let isISO = !probe.file.hasSuffix(".mkv")
            #expect(reader.isoTrack?.presentationTimes == (isISO ? probe.times : nil), "\(probe.file)")
            let times = reader.map(\.timestampInMilliseconds)
            #expect(reader.error == nil)
            #expect(times == probe.times, "\(probe.file)")
            #expect(reader.timesFollowTrack == isISO, "\(probe.file)")
        }
    }

    /// The track's sample tables give ffprobe's figures: frame count, average rate, the container's
    /// duration and the display turn (ffprobe counts it counter-clockwise, the track here clockwise).
    @Test func theTrackIsDescribedAsFFprobeDescribesIt() throws {
        let (folder, probes) = try Self.files()
        defer { try? FileManager.default.removeItem(at: folder) }
        for probe in probes where !probe.file.hasSuffix(".mkv") {
            let track = try #require(ISOVideoTrack(contentsOf: folder.appendingPathComponent(probe.file)), "\(probe.file)")
            #expect(track.presentationTimes == probe.times, "\(probe.file)")
            #expect(abs(track.averageFramesPerSecond - probe.framesPerSecond) < 1e-9, "\(probe.file)")
            #expect(abs(track.duration - probe.duration) < 1e-6, "\(probe.file)")
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
}
