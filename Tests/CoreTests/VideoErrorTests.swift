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
            (empty, "the file is empty"), (named, "it is a folder, not a file"), (notes, "FFmpeg cannot open it as a video"),
            (folder.appendingPathComponent("missing.mp4"), "no such file"),
        ]
        for (url, reason) in cases {
            #expect(throws: VideoError.cannotOpen(path: url.path, reason: reason)) { try VideoReader(url: url) }
        }
    }
}
