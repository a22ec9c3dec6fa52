import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore

/// Videos stored as a phone stores what it filmed in portrait: the frames as the sensor saw them and, in
/// the track header (`tkhd`), the matrix that turns them for display (Apple's QuickTime File Format
/// Specification, "Matrices"; ISO/IEC 14496-12, 8.3.2: x' = a·x + c·y + tx, y' = b·x + d·y + ty).
@Suite struct VideoOrientationTests {
    /// The photo each frame shows upright.
    static func upright() throws -> VisionImage {
        try Fixtures.image("bus.jpg").resized(width: 240, height: 320)
    }

    @Test(arguments: [ImageRotation.clockwise90, .rotate180, .counterClockwise90])
    func framesComeUprightAsTheTrackHeaderTurnsThem(display: ImageRotation) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try Self.writePortraitVideo(turning: display, in: folder)
        try Self.expectUpright(try VideoReader(url: url), display: display)
    }

    /// The same videos copied into Matroska by FFmpeg 9 (Tests/Python/Reference/matroska_turn.py), which
    /// writes the display matrix as the track's projection pose: the track reads the turn that Debian's
    /// ffprobe reads from the copy (counter-clockwise there), and the frames come upright as from the MP4.
    /// Before, a Matroska track's turn was not read (`info` gave none).
    @Test(arguments: [ImageRotation.clockwise90, .rotate180, .counterClockwise90])
    func matroskaFramesComeUprightAsTheProjectionTurnsThem(display: ImageRotation) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try Self.writePortraitVideo(turning: display, in: folder)
        let copy = folder.appendingPathComponent("portrait.mkv")
        let probe = try JSONSerialization.jsonObject(with: try Fixtures.referenceOutput("matroska_turn.py", [url.path, copy.path]))
        let counterClockwise = try #require((probe as? [String: Any])?["rotation"] as? Int)
        let clockwise = switch display {
        case .clockwise90: 90
        case .rotate180: 180
        case .counterClockwise90: 270
        }
        #expect((360 - counterClockwise) % 360 == clockwise, "ffprobe: \(counterClockwise)")
        #expect(try #require(MatroskaVideoTrack(contentsOf: copy)).rotation == clockwise)
        let reader = try VideoReader(url: copy)
        #expect(reader.track?.rotation == clockwise)
        try Self.expectUpright(reader, display: display)
    }

    /// Writes six frames of the photo as a camera stores them when the video is shown turned by `display`,
    /// with the matrix of that turn in the track header, into `portrait.mp4` in `folder`.
    static func writePortraitVideo(turning display: ImageRotation, in folder: URL) throws -> URL {
        let back: ImageRotation = switch display {
        case .clockwise90: .counterClockwise90
        case .rotate180: .rotate180
        case .counterClockwise90: .clockwise90
        }
        let stored = try upright().rotated(by: back).upright()
        let url = folder.appendingPathComponent("portrait.mp4")
        let writer = try VideoWriter(url: url, width: stored.width, height: stored.height, framesPerSecond: 30)
        for _ in 0..<6 { try writer.append(stored) }
        writer.close()
        try setDisplayMatrix(of: url, turning: display, width: stored.width, height: stored.height)
        return url
    }

    /// Expects `reader`'s six frames upright: its size the photo's, and the last frame the photo, not the
    /// photo upside down, as OpenCV 4.6 leaves a quarter turn.
    static func expectUpright(_ reader: VideoReader, display: ImageRotation) throws {
        let upright = try upright()
        #expect((reader.width, reader.height) == (upright.width, upright.height))
        let frames = Array(reader)
        #expect(frames.count == 6 && reader.error == nil)
        let frame = try #require(frames.last).image.buffer
        let fromUpright = try Fixtures.meanDifference(frame, upright.buffer)
        #expect(fromUpright < 8, "mean difference from the upright photo: \(fromUpright)")
        if display != .rotate180 {
            let fromUpsideDown = try Fixtures.meanDifference(frame, try upright.rotated(by: .rotate180).upright().buffer)
            #expect(fromUpsideDown > 3 * fromUpright, "upside down: \(fromUpsideDown), upright: \(fromUpright)")
        }
    }

    /// Writes the matrix of a display turn into the one track header of the MP4 at `url`, whose frames are
    /// `width` × `height` as stored.
    static func setDisplayMatrix(of url: URL, turning display: ImageRotation, width: Int, height: Int) throws {
        // (a, b, c, d, tx, ty): 16.16 fixed point, translations in pixels.
        let (a, b, c, d, tx, ty): (Int32, Int32, Int32, Int32, Int, Int) = switch display {
        case .clockwise90: (0, 1, -1, 0, height, 0)
        case .rotate180: (-1, 0, 0, -1, width, height)
        case .counterClockwise90: (0, -1, 1, 0, 0, width)
        }
        var data = try Data(contentsOf: url)
        let type = try #require(data.firstRange(of: Data("tkhd".utf8)), "no track header")
        // After the type: version and flags, then times and IDs (20 bytes in version 0, 32 in version 1),
        // 16 bytes of reserved, layer, group and volume, then the matrix.
        let matrix = type.upperBound + 4 + (data[type.upperBound] == 1 ? 32 : 20) + 16
        let words: [Int32] = [a << 16, b << 16, 0, c << 16, d << 16, 0, Int32(tx) << 16, Int32(ty) << 16, 1 << 30]
        for (index, word) in words.enumerated() {
            withUnsafeBytes(of: word.bigEndian) { data.replaceSubrange(matrix + 4 * index..<matrix + 4 * index + 4, with: $0) }
        }
        try data.write(to: url)
    }
}
