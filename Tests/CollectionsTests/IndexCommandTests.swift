import Foundation
import Testing

@testable import SwiftVision
@testable import SwiftVisionCollections
import SwiftVisionTestSupport

/// `swiftvision index` run as a subprocess, as users run it.
@Suite struct IndexCommandTests {
    static let executable = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/swiftvision")

    /// Runs the tool with `arguments` to its end: exit status, output, errors. Both streams go to files, so
    /// that a child writing much to one of them never waits for a reader.
    static func run(_ arguments: [String], in directory: URL? = nil) throws -> (status: Int32, output: String, errors: String) {
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "run `swift build` first")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (output, errors) = (folder.appendingPathComponent("output"), folder.appendingPathComponent("errors"))
        for file in [output, errors] { try #require(FileManager.default.createFile(atPath: file.path, contents: nil)) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8), try String(contentsOf: errors, encoding: .utf8))
    }

    /// Each line of `output` as a JSON object; a line that is not one fails the test.
    static func jsonLines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-index-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aRunKilledMidwayResumesWithoutDuplicates() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("c.sqlite")
        let media = SwiftVisionCache.current.samples.path
        let arguments = ["index", "add", "killed", media, "--database", database.path, "--parallel", "1", "--json",
                         "--tasks", "labels,objects,faces,text,barcodes,embeddings"]
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Killed (SIGKILL: no chance to tidy up) once a few items are in.
        let store = try SQLiteCollectionStore(url: database)
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline, (try store.collections().first?.items ?? 0) < 3 {
            usleep(5_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let before = try store.collections().first?.items ?? 0
        let total = CollectionIndexer(
            store: store, collection: "killed", analyzer: try ItemAnalyzer(tasks: []), videoExtensions: []
        ).sources(for: [media]).count
        try #require(process.terminationReason == .uncaughtSignal && before >= 3 && before < total, "killed after \(before) of \(total)")

        let resumed = try Self.run(arguments)
        #expect(resumed.status == 0, "\(resumed.errors)")
        let lines = try Self.jsonLines(resumed.output)
        #expect(lines.filter { $0["status"] as? String == "skipped" }.count == before)
        #expect(lines.filter { $0["status"] as? String == "added" }.count == total - before)
        let export = try Self.jsonLines(try Self.run(["index", "export", "killed", "--database", database.path]).output)
        #expect(export.count == total)
        #expect(Set(export.compactMap { $0["contentHash"] as? String }).count == total)
        #expect(export.allSatisfy { $0["labels"] != nil && $0["faces"] != nil && $0["embeddings"] != nil && $0["text"] != nil })
    }

    @Test func videosAreSampledEveryNSecondsAndAtCutsWithTheirTimes() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Three seconds at 10 frames/s: bus.jpg, then zidane.jpg, then chelsea.png, a second each.
        let video = folder.appendingPathComponent("three.mp4")
        let writer = try VideoWriter(url: video, width: 640, height: 480, framesPerSecond: 10)
        for name in ["bus.jpg", "zidane.jpg", "chelsea.png"] {
            let frame = try VisionImage(contentsOf: SwiftVisionCache.current.sample(named: name)).resized(width: 640, height: 480)
            for _ in 0..<10 { try writer.append(frame) }
        }
        writer.close()
        let database = folder.appendingPathComponent("c.sqlite").path
        let add = try Self.run(["index", "add", "clips", video.path, "--every", "1", "--tasks", "embeddings", "--json", "--database", database])
        #expect(add.status == 0, "\(add.errors)")
        #expect(try Self.jsonLines(add.output).compactMap { $0["timestampMs"] as? Int } == [0, 1000, 2000])
        let search = try Self.run([
            "index", "search", "clips", "--image", SwiftVisionCache.current.sample(named: "chelsea.png").path, "--k", "1", "--json",
            "--database", database,
        ])
        let hit = try #require(try Self.jsonLines(search.output).first)
        #expect(hit["timestampMs"] as? Int == 2000 && hit["file"] as? String == video.path)
        // Every 10 s, only the first frame is due by time; the two cuts between the photos add the first
        // frame of each new shot (at 1000 and 2000 ms), unless --no-scene-cuts.
        let cuts = try Self.run(["index", "add", "shots", video.path, "--every", "10", "--tasks", "embeddings", "--json", "--database", database])
        #expect(try Self.jsonLines(cuts.output).compactMap { $0["timestampMs"] as? Int } == [0, 1000, 2000])
        let timed = try Self.run([
            "index", "add", "timed", video.path, "--every", "10", "--no-scene-cuts", "--tasks", "embeddings", "--json", "--database", database,
        ])
        #expect(try Self.jsonLines(timed.output).compactMap { $0["timestampMs"] as? Int } == [0])
    }

    @Test func progressIsABarOnATerminalAndLinesOtherwise() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = ["bus.jpg", "zidane.jpg"].map { SwiftVisionCache.current.sample(named: $0).path }
        let arguments = ["index", "add", "p"] + photos + ["--tasks", "embeddings", "--database"]
        let (status, terminal) = try Fixtures.runOnTerminal(Self.executable, arguments + [folder.appendingPathComponent("tty.sqlite").path], in: folder)
        #expect(status == 0)
        #expect(terminal.contains("\rindex ██████████") && terminal.contains("2/2 files") && terminal.contains("ETA"))
        let piped = try Self.run(arguments + [folder.appendingPathComponent("pipe.sqlite").path])
        #expect(piped.status == 0 && !piped.errors.contains("█"))
        #expect(piped.errors.hasPrefix("index: 2/2 files, ") && piped.errors.hasSuffix(", 2 added, 0 skipped, 0 failed\n"))
    }

    /// Ctrl-C stops after the pictures in hand (docs/collections.md); the exit status is then the shell's
    /// for a command ended by SIGINT, 128 + 2, so that a script does not take the collection for complete.
    @Test func aRunStoppedByCtrlCSaysSoInItsExitStatus() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("c.sqlite")
        let arguments = ["index", "add", "stopped", SwiftVisionCache.current.samples.path, "--database", database.path,
                         "--parallel", "1", "--tasks", "embeddings"]
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        let errors = folder.appendingPathComponent("errors")
        try #require(FileManager.default.createFile(atPath: errors.path, contents: nil))
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let store = try SQLiteCollectionStore(url: database)
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, Date() < deadline, (try? store.collections().first?.items ?? 0) ?? 0 < 1 {
            usleep(5_000)
        }
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stopped = try String(contentsOf: errors, encoding: .utf8)
        // The last line counts the files done (the photos in the collection: one at a time, each ends
        // before the run stops) of the files in the folder, not the folder's count twice.
        let line = try #require(stopped.split(separator: "\n").last.map(String.init))
        let match = try #require(try /index: stopped after (\d+) of (\d+) files, .*; run again to go on/.wholeMatch(in: line),
                                 "the run ended before the signal: \(stopped)")
        let files = try FileManager.default.contentsOfDirectory(atPath: SwiftVisionCache.current.samples.path).count
        let items = try #require(try store.collections().first?.items)
        #expect(Int(match.1) == items && Int(match.2) == files && items < files)
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        #expect(try Self.run(arguments).status == 0)
    }

    /// `index prune` removes the items of a deleted file and a changed file's old version (the id the first
    /// run gave it), keeps the changed file's new item and the untouched one, and finds nothing more after.
    @Test func pruneRemovesTheItemsOfDeletedAndChangedFiles() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in ["bus.jpg", "zidane.jpg", "page.png"] {
            try FileManager.default.copyItem(at: SwiftVisionCache.current.sample(named: name), to: photos.appendingPathComponent(name))
        }
        let database = ["--database", folder.appendingPathComponent("c.sqlite").path]
        let add = ["index", "add", "pruned", photos.path, "--tasks", "embeddings", "--json"] + database
        func ids(_ lines: [[String: Any]]) -> [String: Int64] {
            Dictionary(uniqueKeysWithValues: lines.compactMap { line in
                (line["id"] as? Int64).flatMap { id in (line["file"] as? String).map { (URL(fileURLWithPath: $0).lastPathComponent, id) } }
            })
        }
        let first = ids(try Self.jsonLines(try Self.run(add).output))
        try FileManager.default.removeItem(at: photos.appendingPathComponent("zidane.jpg"))
        let bus = photos.appendingPathComponent("bus.jpg")
        try FileManager.default.removeItem(at: bus)
        try FileManager.default.copyItem(at: SwiftVisionCache.current.sample(named: "chelsea.png"), to: bus)
        let second = ids(try Self.jsonLines(try Self.run(add).output))
        #expect(Set(first.keys) == ["bus.jpg", "zidane.jpg", "page.png"] && Array(second.keys) == ["bus.jpg"])

        let prune = try Self.run(["index", "prune", "pruned", "--json"] + database)
        #expect(prune.status == 0, "\(prune.errors)")
        let removed = try Self.jsonLines(prune.output).compactMap { $0["id"] as? Int64 }
        #expect(Set(removed) == [first["bus.jpg"], first["zidane.jpg"]])
        let left = try Self.jsonLines(try Self.run(["index", "search", "pruned", "--json"] + database).output)
        #expect(Set(left.compactMap { $0["id"] as? Int64 }) == [first["page.png"], second["bus.jpg"]])
        #expect(try Self.run(["index", "prune", "pruned", "--json"] + database).output.isEmpty)
    }

    /// A folder reached through a symbolic link (a photo library on another disk) is searched as the
    /// folder itself is, and its items keep the path as given.
    @Test func aFolderNamedThroughALinkIsIndexed() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = folder.appendingPathComponent("disk/Photos")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: SwiftVisionCache.current.sample(named: "zidane.jpg"), to: library.appendingPathComponent("zidane.jpg"))
        let link = folder.appendingPathComponent("Pictures")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: library)
        let add = try Self.run(["index", "add", "linked", link.path, "--tasks", "embeddings", "--json",
                                "--database", folder.appendingPathComponent("c.sqlite").path])
        #expect(add.status == 0, "\(add.errors)")
        let lines = try Self.jsonLines(add.output)
        #expect(lines.map { $0["status"] as? String } == ["added"] && lines.first?["file"] as? String == link.path + "/zidane.jpg")
    }

    @Test func itemsNameTheirFilesFromAnyFolder() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let roll = folder.appendingPathComponent("Camera Roll")
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
        let photo = roll.appendingPathComponent("zidane.jpg")
        try FileManager.default.copyItem(at: SwiftVisionCache.current.sample(named: "zidane.jpg"), to: photo)
        let broken = roll.appendingPathComponent("notes.jpg")
        try Data("a note, not a photo\n".utf8).write(to: broken)
        let database = ["--database", folder.appendingPathComponent("c.sqlite").path, "--json"]

        // Named relative to the folder the command runs in, as `index add photos ~/Pictures` from home is.
        let relative = try Self.run(["index", "add", "roll", "Camera Roll", "--tasks", "embeddings"] + database, in: folder)
        #expect(Set(try Self.jsonLines(relative.output).compactMap { $0["file"] as? String }) == [photo.path, broken.path])
        let found = try Self.jsonLines(try Self.run(["index", "search", "roll"] + database).output)
        #expect(found.map { $0["file"] as? String } == [photo.path])
        // The same folder by its absolute path: the photo is in, and the broken file is one failure, not two.
        let absolute = try Self.jsonLines(try Self.run(["index", "add", "roll", roll.path, "--tasks", "embeddings"] + database).output)
        #expect(absolute.filter { $0["status"] as? String == "skipped" }.map { $0["file"] as? String } == [photo.path])
        let list = try Self.jsonLines(try Self.run(["index", "list"] + database).output)
        #expect(list.first?["items"] as? Int == 1 && list.first?["failures"] as? Int == 1)
    }

    @Test func everyCommandPrintsJSONLinesAndRefusesBadInput() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = ["--database", folder.appendingPathComponent("c.sqlite").path]
        let broken = folder.appendingPathComponent("text.png")
        try Data("this is a text file, not a picture\n".utf8).write(to: broken)
        let zidane = SwiftVisionCache.current.sample(named: "zidane.jpg").path
        let bus = SwiftVisionCache.current.sample(named: "bus.jpg").path
        let add = try Self.run(["index", "add", "mixed", zidane, broken.path, bus, "--tasks", "faces,embeddings", "--json"] + database)
        #expect(add.status == 1)
        let lines = try Self.jsonLines(add.output)
        let failed = lines.filter { $0["status"] as? String == "failed" }
        #expect(lines.count == 3 && failed.count == 1 && failed.first?["file"] as? String == broken.path)
        #expect((failed.first?["error"] as? String)?.isEmpty == false)
        #expect(add.errors.contains(broken.path))
        // A video that does not open is named once, by its line's file, as a photo is.
        let note = folder.appendingPathComponent("note.mp4")
        try Data("this is a text file, not a video\n".utf8).write(to: note)
        let video = try Self.run(["index", "add", "mixed", note.path, "--json"] + database)
        let refused = try Self.jsonLines(video.output)
        #expect(video.status == 1 && refused.count == 1 && refused.first?["file"] as? String == note.path, "\(video.output)")
        #expect(refused.first?["error"] as? String == "cannot open the video: FFmpeg finds no video stream in it", "\(refused)")
        #expect(video.errors.contains("\(note.path): cannot open the video: "), "\(video.errors)")

        for arguments in [
            ["index", "search", "mixed", "--item", "1", "--json"], ["index", "search", "mixed", "--faces", "2", "--json"],
            // Embeddings come after a ReLU: no two have a negative cosine, so at 0 every item is in one group.
            ["index", "duplicates", "mixed", "--threshold", "0", "--json"], ["index", "export", "mixed"], ["index", "list", "--json"],
        ] {
            let run = try Self.run(arguments + database)
            #expect(run.status == 0, "\(arguments): \(run.errors)")
            let lines = try Self.jsonLines(run.output)
            #expect(!lines.isEmpty && lines.allSatisfy { $0["file"] != nil || $0["name"] != nil || $0["group"] != nil }, "\(arguments)")
        }
        for arguments in [
            ["index", "search", "mixed", "--faces", "two"], ["index", "add", "mixed", zidane, "--tasks", "colours"],
            ["index", "add", "mixed", zidane, "--every", "0"], ["index", "duplicates", "mixed", "--threshold", "2"],
            ["index", "search", "mixed", "--image", zidane, "--item", "1"], ["index", "search", "mixed", "--k", "0"],
        ] {
            #expect(try Self.run(arguments + database).status == 64, "\(arguments)")
        }
        let unknown = try Self.run(["index", "search", "nowhere", "--label", "dog"] + database)
        #expect(unknown.status == 1 && unknown.errors.contains("no collection named 'nowhere'"))
        let missingItem = try Self.run(["index", "search", "mixed", "--item", "99"] + database)
        #expect(missingItem.status == 1 && missingItem.errors.contains("no item 99"))
        // Reading a database that is not there makes none.
        let elsewhere = folder.appendingPathComponent("none.sqlite").path
        let missing = try Self.run(["index", "search", "mixed", "--label", "dog", "--database", elsewhere])
        #expect(missing.status == 1 && missing.errors.contains("no collections at \(elsewhere)"))
        #expect(try Self.run(["index", "list", "--json", "--database", elsewhere]).output.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: elsewhere))
    }
}
