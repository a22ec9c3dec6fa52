import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore

/// A video file that cannot be opened is refused with its path and why, said once: a file of no bytes, a
/// folder named as a video, a text file named `.mp4`, a missing file.
@Suite struct VideoErrorTests {
    @Test func aVideoThatCannotBeOpenedSaysWhy() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.mp4")
        try Data().write(to: empty)
        let named = folder.appendingPathComponent("clips.mp4", isDirectory: true)
        try FileManager.default.createDirectory(at: named, withIntermediateDirectories: true)
        let notes = folder.appendingPathComponent("notes.mp4")
        try Data("not a video\n".utf8).write(to: notes)
        let cases = [
            (empty, "the file is empty"), (named, "it is a folder, not a file"), (notes, "FFmpeg finds no video stream in it"),
            (folder.appendingPathComponent("missing.mp4"), "no such file"),
        ]
        for (url, reason) in cases {
            #expect(throws: VideoError.cannotOpen(path: url.path, reason: reason)) { try VideoReader(url: url) }
        }
    }

    /// An MP4 whose recording stopped before its index was written (an H.264 MP4 written here, whose movie
    /// box follows its frames, cut in the middle of them) says so, as ffprobe's "moov atom not found" does,
    /// where FFmpeg through OpenCV only finds no video stream in it; the whole file opens.
    @Test func anMP4CutBeforeItsIndexSaysSo() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = folder.appendingPathComponent("whole.mp4"), cut = folder.appendingPathComponent("cut.mp4")
        let frame = try Fixtures.image("bus.jpg").resized(width: 160, height: 120)
        let writer = try VideoWriter(url: whole, width: 160, height: 120, framesPerSecond: 10)
        for _ in 0..<5 { try writer.append(frame) }
        writer.close()
        let data = try Data(contentsOf: whole)
        let frames = try #require(data.firstRange(of: Data("mdat".utf8))), index = try #require(data.firstRange(of: Data("moov".utf8)))
        try #require(frames.lowerBound < index.lowerBound, "the index follows the frames")
        try data.prefix((frames.upperBound + index.lowerBound) / 2).write(to: cut)
        #expect(Array(try VideoReader(url: whole)).count == 5)
        let reason = "it is cut short before its index (the movie box, moov): a recording stopped before it was finished, or an incomplete copy"
        #expect(throws: VideoError.cannotOpen(path: cut.path, reason: reason)) { try VideoReader(url: cut) }
    }
}

/// Videos are written in the containers FFmpeg takes H.264 (or, in AVI, Motion JPEG) in; any other
/// name is refused before a file is made (FFmpeg would write `clip.jpg` as an undecodable image sequence).
@Suite struct VideoWriterContainerTests {
    @Test func writesOnlyVideoContainers() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frame = try Fixtures.image("bus.jpg").resized(width: 160, height: 120)
        for name in ["clip.mp4", "clip.M4V", "clip.mov", "clip.mkv", "clip.avi"] {
            let url = folder.appendingPathComponent(name)
            let writer = try VideoWriter(url: url, width: 160, height: 120, framesPerSecond: 10)
            for _ in 0..<3 { try writer.append(frame) }
            writer.close()
            #expect(Array(try VideoReader(url: url)).count == 3, "\(name)")
        }
        for name in ["clip.jpg", "clip.png", "clip.webm", "clip.gif", "clip"] {
            let url = folder.appendingPathComponent(name)
            #expect(throws: VideoError.cannotWrite(path: url.path, reason: "a video is written as .mp4, .m4v, .mov, .mkv or .avi")) {
                try VideoWriter(url: url, width: 160, height: 120, framesPerSecond: 10)
            }
            #expect(!FileManager.default.fileExists(atPath: url.path), "\(name)")
        }
    }
}
