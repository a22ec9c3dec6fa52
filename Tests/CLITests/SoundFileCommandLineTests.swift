import Foundation
import SwiftVisionTestSupport
import Testing

/// A sound file given where a photo or video is wanted (a voice memo, a song, a recording saved without
/// its extension) is refused on every path with the reason that it holds sound only, and the other inputs
/// go on; `index add` tells a video from a photo by its first bytes, as the task commands do. The sound
/// files are written and read back by Python's own `wave` and `aifc` modules
/// (Tests/Python/Reference/sound_files.py); the video by OpenCV's FFmpeg writer, with the frames OpenCV
/// reads back from it (Tests/Python/Reference/video_containers.py).
@Suite struct SoundFileCommandLineTests {
    static let executable = Fixtures.executable

    /// The sound files, each also copied without an extension and under a video's name.
    static func soundFiles(in folder: URL) throws -> [String] {
        let manifest = try JSONSerialization.jsonObject(
            with: try Fixtures.referenceOutput("sound_files.py", [folder.path])) as? [[String: Any]] ?? []
        try #require(manifest.count == 2 && manifest.allSatisfy { $0["channels"] as? Int == 1 && $0["frames"] as? Int == 8000 }, "\(manifest)")
        let wav = folder.appendingPathComponent("tone.wav")
        for copy in ["VOICE-0001", "memo.mp4"] {
            try FileManager.default.copyItem(at: wav, to: folder.appendingPathComponent(copy))
        }
        return ["tone.wav", "tone.aiff", "VOICE-0001", "memo.mp4"].map { folder.appendingPathComponent($0).path }
    }

    @Test func taskCommandsSayASoundFileHoldsSoundOnly() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sounds = try Self.soundFiles(in: folder)
        let photo = try Fixtures.sample("coffee.png").path
        let run = try Fixtures.run(Self.executable, ["labels", "--json"] + sounds + [photo])
        #expect(run.status == 1, "\(run.errors)")
        let lines = Fixtures.jsonLines(run.output)
        for sound in sounds {
            let error = lines.first { $0["file"] as? String == sound }?["error"] as? String ?? ""
            #expect(error.contains("holds sound only"), "\(sound): \(error)")
        }
        #expect(lines.contains { $0["file"] as? String == photo && $0["labels"] != nil }, "\(run.output)")
    }

    @Test func indexAddSniffsVideosAndRefusesSoundFiles() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sounds = try Self.soundFiles(in: folder)
        let manifest = try JSONSerialization.jsonObject(
            with: try Fixtures.referenceOutput("video_containers.py", [folder.path, try Fixtures.sample("coffee.png").path, "2"]))
            as? [[String: Any]] ?? []
        try #require(manifest.contains { $0["file"] as? String == "clip.ts" && $0["frames"] as? Int == 2 }, "\(manifest)")
        // A transport stream saved without its extension: two frames, 5 a second.
        let video = folder.appendingPathComponent("VID-0001")
        try FileManager.default.moveItem(at: folder.appendingPathComponent("clip.ts"), to: video)
        let database = folder.appendingPathComponent("c.sqlite").path
        let run = try Fixtures.run(
            Self.executable,
            ["index", "add", "media", video.path] + sounds + ["--every", "0.1", "--tasks", "embeddings", "--json", "--database", database])
        #expect(run.status == 1, "\(run.errors)")
        let lines = Fixtures.jsonLines(run.output)
        let added = lines.filter { $0["file"] as? String == video.path && $0["status"] as? String == "added" }
        #expect(added.compactMap { $0["timestampMs"] as? Int } == [0, 200], "\(run.output)")
        for sound in sounds {
            let error = lines.first { $0["file"] as? String == sound }?["error"] as? String ?? ""
            #expect(error.contains("holds sound only"), "\(sound): \(error)")
        }
    }
}
