import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct CommandLineTests {
    static let executable = Fixtures.executable

    @Test func infoPrintsJSONLinesInUprightPixels() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "run `swift build` first")
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let upright = try Fixtures.image("bus.jpg").resized(width: 270, height: 360)
        let stored = try VisionImage(buffer: upright.buffer, orientation: .left).upright()
        let rotated = folder.appendingPathComponent("rotated.jpg")
        try Fixtures.jpeg(storing: stored, orientation: .right).write(to: rotated)

        let run = try Fixtures.run(Self.executable, ["info", "--json", try Fixtures.sample("astronaut.png").path, rotated.path])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 2)
        #expect(lines[0]?["width"] as? Int == 512 && lines[0]?["format"] as? String == "png")
        #expect(lines[1]?["file"] as? String == rotated.path)
        #expect(lines[1]?["width"] as? Int == 270 && lines[1]?["height"] as? Int == 360)
        #expect(lines[1]?["orientation"] as? Int == 6 && lines[1]?["format"] as? String == "jpeg")
    }

    @Test func runtimeLogLinesShowOnlyWithVerbose() throws {
        let photo = try Fixtures.sample("zidane.jpg").path
        // LiteRT 2.3.0 announces every environment it creates with this INFO line (environment.cc).
        let announcement = "Creating LiteRT environment"
        let quiet = try Fixtures.run(Self.executable, ["faces", photo])
        #expect(quiet.status == 0, "\(quiet.errors)")
        #expect(quiet.output.contains("2 face(s)"))
        #expect(quiet.errors.isEmpty, "a run that goes well prints nothing on standard error: \(quiet.errors)")
        let verbose = try Fixtures.run(Self.executable, ["faces", "--verbose", photo])
        #expect(verbose.status == 0)
        #expect(verbose.errors.contains(announcement) && verbose.errors.contains("INFO: "))
        #expect(verbose.output == quiet.output)
        // page.png carries an ICC profile that libpng calls invalid ("iCCP: … invalid rendering intent"),
        // a warning it prints itself; SwiftVision never applies profiles and decodes without it.
        let page = try Fixtures.sample("page.png")
        #expect(try Data(contentsOf: page).range(of: Data("iCCP".utf8)) != nil)
        let png = try Fixtures.run(Self.executable, ["rectangles", page.path])
        #expect(png.status == 0 && png.errors.isEmpty, "\(png.errors)")
    }

    @Test func drawTakesAFolderForOneInputToo() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Fixtures.sample("zidane.jpg")
        // A path ending in `/` is a folder made as needed; an existing folder is a folder without one.
        let made = folder.appendingPathComponent("made").path + "/"
        let first = try Fixtures.run(Self.executable, ["faces", "--fast", photo.path, "--draw", made])
        #expect(first.status == 0, "\(first.errors)")
        let drawn = URL(fileURLWithPath: made).appendingPathComponent("zidane.png")
        #expect(try VisionImage(contentsOf: drawn).width == 1280)
        let second = try Fixtures.run(Self.executable, ["rectangles", photo.path, "--draw", folder.path])
        #expect(second.status == 0, "\(second.errors)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("zidane.png").path))

        // --draw naming the input itself is refused for that input; the input is left as it was.
        let own = folder.appendingPathComponent("own.png")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("zidane.png"), to: own)
        let before = try Data(contentsOf: own)
        let overwrite = try Fixtures.run(Self.executable, ["rectangles", "--json", own.path, "--draw", own.path])
        #expect(overwrite.status == 1)
        #expect(overwrite.output.contains("would overwrite its input"))
        #expect(try Data(contentsOf: own) == before)
    }

    /// Photos of the same name in different folders (IMG_0001.JPG in two of a camera's DCIM folders) each
    /// get their annotated copy in a `--draw` folder: the second is numbered instead of overwriting the first.
    @Test func drawingsOfSameNamedInputsAreKeptApart() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let camera = folder.appendingPathComponent("DCIM")
        for (subfolder, sample) in [("100CANON", "zidane.jpg"), ("101CANON", "bus.jpg")] {
            let destination = camera.appendingPathComponent(subfolder)
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: try Fixtures.sample(sample), to: destination.appendingPathComponent("IMG_0001.JPG"))
        }
        let drawings = folder.appendingPathComponent("drawn")
        let run = try Fixtures.run(Self.executable, ["rectangles", camera.path, "--draw", drawings.path + "/"])
        #expect(run.status == 0, "\(run.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: drawings.path).sorted()
        #expect(names == ["IMG_0001-2.png", "IMG_0001.png"])
        // Inputs in path order: 100CANON's zidane.jpg (1280×720) first, then 101CANON's bus.jpg (810×1080).
        #expect(try VisionImage(contentsOf: drawings.appendingPathComponent("IMG_0001.png")).width == 1280)
        #expect(try VisionImage(contentsOf: drawings.appendingPathComponent("IMG_0001-2.png")).width == 810)
    }

    /// On a terminal standard output and error share the screen: every result line and every error line
    /// must start a line of its own, never follow the progress bar drawn on standard error. The screen is
    /// read as a terminal shows it: a carriage return goes back to the line's start, `ESC [ K` erases to
    /// its end, and other characters overwrite.
    @Test func resultsOnATerminalNeverFollowTheProgressBar() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.png")
        try Data().write(to: empty)
        let inputs = try ["pyzbar-qrcode.png", "pyzbar-code128.png"].map { try Fixtures.sample($0).path }
        let run = try Fixtures.runOnTerminal(Self.executable, ["barcodes", "--json", inputs[0], empty.path, inputs[1]], in: folder)
        #expect(run.status == 1, "the empty file fails")
        let screen = Self.screenLines(run.terminal).filter { !$0.hasPrefix("Script ") }
        let results = screen.filter { $0.hasPrefix("{") }
        #expect(results.count == 3, "\(screen)")
        #expect(results.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil }, "\(screen)")
        #expect(screen.contains { $0.hasPrefix(empty.path + ": ") }, "\(screen)")
        #expect(screen.allSatisfy { $0.isEmpty || $0.hasPrefix("{") || $0.hasPrefix(empty.path) || $0.hasPrefix("barcodes ") }, "\(screen)")
    }

    /// What a terminal shows of each line of `output`.
    private static func screenLines(_ output: String) -> [String] {
        output.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var cells: [Unicode.Scalar] = []
            var cursor = 0
            var rest = line
            while let scalar = rest.first {
                if rest.starts(with: "\u{1B}[K".unicodeScalars) {
                    cells.removeSubrange(min(cursor, cells.count)...)
                    rest = rest.dropFirst(3)
                    continue
                }
                rest = rest.dropFirst()
                if scalar == "\r" {
                    cursor = 0
                } else if cursor < cells.count {
                    cells[cursor] = scalar
                    cursor += 1
                } else {
                    cells.append(scalar)
                    cursor += 1
                }
            }
            var shown = String.UnicodeScalarView()
            shown.append(contentsOf: cells)
            return String(shown)
        }
    }

    @Test func infoReportsBadFilesAndFails() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.png")
        try Data("definitely not a picture".utf8).write(to: broken)
        let run = try Fixtures.run(Self.executable, ["info", "--json", broken.path, try Fixtures.sample("dog.jpg").path])
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains("\"error\"") && lines[0].contains("not an image"))
        #expect(lines[1].contains("\"width\":768"))
    }

    /// `similar` reads images; a video (an MJPEG AVI of sample photos, written by OpenCV here) is named as
    /// one, and the task commands pointed to, instead of "not an image in a supported format"; `info`
    /// describes it as written: the photo's size, 2 frames, 5 frames a second, 0.4 s.
    @Test func imageCommandsSayAVideoIsAVideo() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("clip.avi")
        let photo = try Fixtures.image("zidane.jpg")
        let writer = try VideoWriter(url: video, width: photo.width, height: photo.height, framesPerSecond: 5)
        for _ in 0..<2 { try writer.append(photo) }
        writer.close()
        let dog = try Fixtures.sample("dog.jpg").path
        let info = try Fixtures.run(Self.executable, ["info", "--json", video.path, dog])
        #expect(info.status == 0)
        let lines = Fixtures.jsonLines(info.output)
        #expect(lines.count == 2 && lines[1]["width"] as? Int == 768)
        let described = try #require(lines.first)
        #expect(described["width"] as? Int == photo.width && described["height"] as? Int == photo.height, "\(described)")
        #expect(described["frames"] as? Int == 2 && described["framesPerSecond"] as? Double == 5, "\(described)")
        #expect(described["duration"] as? Double == 0.4 && described["format"] as? String == "avi", "\(described)")
        let similar = try Fixtures.run(Self.executable, ["similar", dog, video.path])
        #expect(similar.status == 1)
        #expect(similar.errors.contains("\(video.path): it is a video; similar reads images"), "\(similar.errors)")
    }

    /// What ffprobe says of the videos that Tests/Python/Reference/video_timing.py writes into `folder`, those
    /// whose names end in one of `endings`.
    static func videoTimingProbes(in folder: URL, endingIn endings: [String]) throws -> [[String: Any]] {
        let output = try Fixtures.referenceOutput("video_timing.py", [folder.path])
        return try #require(try JSONSerialization.jsonObject(with: output) as? [[String: Any]])
            .filter { probe in endings.contains { (probe["file"] as! String).hasSuffix($0) } }
    }

    /// `info` describes MP4 and MOV files as ffprobe does (Tests/Python/Reference/video_timing.py: files
    /// written by Debian's `ffmpeg`, one with a quarter turn written into its track header): the frame count
    /// (`nb_frames`), the average rate, the container's duration, the display turn (ffprobe counts it
    /// counter-clockwise) and the upright size (ffprobe's stored size, swapped by a quarter turn).
    @Test func infoDescribesVideosAsFFprobe() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let probes = try Self.videoTimingProbes(in: folder, endingIn: [".mp4", ".mov"])
        try #require(probes.count == 5)
        let paths = probes.map { folder.appendingPathComponent($0["file"] as! String).path }
        let run = try Fixtures.run(Self.executable, ["info", "--json"] + paths)
        #expect(run.status == 0, "\(run.errors)")
        let lines = Fixtures.jsonLines(run.output)
        try #require(lines.count == 5, "\(run.output)")
        for (probe, line) in zip(probes, lines) {
            let turn = (360 - (probe["rotation"] as! Int)) % 360
            let (width, height) = (probe["width"] as! Int, probe["height"] as! Int)
            #expect(line["rotation"] as? Int == turn, "\(line) \(probe)")
            #expect(line["width"] as? Int == (turn % 180 == 0 ? width : height) && line["height"] as? Int == (turn % 180 == 0 ? height : width))
            #expect(line["frames"] as? Int == probe["frames"] as? Int, "\(line) \(probe)")
            #expect(abs((line["framesPerSecond"] as? Double ?? 0) - (probe["framesPerSecond"] as! Double)) < 0.001, "\(line) \(probe)")
            #expect(abs((line["duration"] as? Double ?? 0) - (probe["duration"] as! Double)) < 0.001, "\(line) \(probe)")
            #expect(line["format"] as? String == "isoMedia")
        }
        let text = try Fixtures.run(Self.executable, ["info", paths[0], paths[4]])
        #expect(text.output == """
            \(paths[0]): 160×120 video (isoMedia), 45 frames in 2.434 s, 19.565 frames/s
            \(paths[4]): 120×160 video (isoMedia), 30 frames in 1.2 s, 25 frames/s, turned 90° clockwise for display

            """, "\(text.output)")
    }

    /// `info` describes Matroska and WebM files from their blocks as ffprobe does (video_timing.py: H.264
    /// with B-frames, VP9, AV1, a constant rate, a live recording's WebM): the frames ffprobe decodes, the
    /// segment's duration (live.webm has none: ffprobe's duration of vp9.webm, the same frames written to a
    /// file), the average rate as frames over that duration; the display turn of the track's projection
    /// (turned.mkv, turned.webm: written by FFmpeg 9), with the upright size. Before, FFmpeg's estimate: 118
    /// frames of 73 at 30 a second, no figures at all for live.webm, and no turn.
    @Test func infoDescribesMatroskaAsFFprobe() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let probes = try Self.videoTimingProbes(in: folder, endingIn: [".mkv", ".webm"])
        try #require(probes.count == 8)
        let sameFramesWithADuration = try #require(probes.first { $0["file"] as? String == "vp9.webm" }?["duration"] as? Double)
        let run = try Fixtures.run(Self.executable, ["info", "--json"] + probes.map { folder.appendingPathComponent($0["file"] as! String).path })
        #expect(run.status == 0, "\(run.errors)")
        let lines = Fixtures.jsonLines(run.output)
        try #require(lines.count == probes.count, "\(run.output)")
        for (probe, line) in zip(probes, lines) {
            let duration = probe["duration"] as? Double ?? sameFramesWithADuration
            let frames = probe["frames"] as! Int
            #expect(line["frames"] as? Int == frames, "\(line) \(probe)")
            #expect(abs((line["duration"] as? Double ?? 0) - duration) < 0.001, "\(line) \(probe)")
            #expect(abs((line["framesPerSecond"] as? Double ?? 0) - Double(frames) / duration) < 0.01, "\(line) \(probe)")
            let turn = (360 - (probe["rotation"] as! Int)) % 360
            let (width, height) = (probe["width"] as! Int, probe["height"] as! Int)
            #expect(line["format"] as? String == "matroska" && line["rotation"] as? Int == turn, "\(line) \(probe)")
            #expect(line["width"] as? Int == (turn % 180 == 0 ? width : height) && line["height"] as? Int == (turn % 180 == 0 ? height : width))
        }
    }

    /// A drawing of a variable-rate video keeps each frame at its time: vfr.mp4 and vfr.mkv (video_timing.py:
    /// 30 frames 1/30 s apart, then 15 frames 1/10 s apart) and bframes.mkv (73 frames at three rates, the
    /// fastest 30 a second), ffprobe's times the truth, are drawn at their peak rate, 30 frames a second, each
    /// frame repeated until the next is due: as many frames as the last one's slot (vfr: 73, 2.4 s and the
    /// last), and the drawn frame at each source frame's time is, of all source frames, nearest to that
    /// one. Before, 45 frames at the average rate (19.6 a second) put the first part late by up to half a
    /// second, in vfr.mkv too (FFmpeg reports its average, and Matroska's blocks were not read); bframes.mkv's
    /// last two frames were drawn 1 and 2 slots late (120 frames). bframes.mkv's frames, forced B-frames
    /// between every reference, differ from the next by 0.45 grey levels on average, less than the drawing's
    /// own encoding adds (about 3): there only the count and the rate are checked.
    @Test(arguments: ["vfr.mp4", "vfr.mkv", "bframes.mkv"])
    func drawingAVariableRateVideoKeepsItsTimes(file: String) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let probes = try Self.videoTimingProbes(in: folder, endingIn: [file])
        let times = try #require(probes.first?["times"] as? [Int])
        let source = folder.appendingPathComponent(file), drawn = folder.appendingPathComponent("drawn.mp4")
        let run = try Fixtures.run(Self.executable, ["barcodes", "--draw", drawn.path, source.path])
        #expect(run.status == 0, "\(run.errors)")
        let reader = try VideoReader(url: drawn)
        #expect(abs(reader.framesPerSecond - 30) < 0.01)
        let drawnFrames = reader.map(\.image.buffer)
        let sourceFrames = try VideoReader(url: source).map(\.image.buffer)
        let slots = times.map { Int((Double($0) * 30 / 1000).rounded()) }
        #expect(drawnFrames.count == slots.last! + 1 && sourceFrames.count == times.count, "\(drawnFrames.count) drawn")
        for (index, (time, slot)) in zip(times, slots).enumerated() where file.hasPrefix("vfr") {
            guard slot < drawnFrames.count else { Issue.record("frame \(index) at \(time) ms has no drawn frame"); continue }
            let differences = try sourceFrames.map { try Fixtures.meanDifference(drawnFrames[slot], $0) }
            #expect(differences.indices.min { differences[$0] < differences[$1] } == index, "frame \(index) at \(time) ms")
        }
    }

    /// A photo saved under a video's name (bus.jpg as `.mp4`) is described as the JPEG it is (810×1080, its
    /// header's size), not as a video of no frames; a note named `.mp4` is still a video that does not open,
    /// said without its path again (the line's `file` names it).
    @Test func infoDescribesAPhotoNamedAsAVideoAsAPhoto() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("bus.mp4"), note = folder.appendingPathComponent("note.mp4")
        try Data(contentsOf: try Fixtures.sample("bus.jpg")).write(to: photo)
        try Data("hello".utf8).write(to: note)
        let run = try Fixtures.run(Self.executable, ["info", "--json", photo.path, note.path])
        #expect(run.status == 1)
        let lines = Fixtures.jsonLines(run.output)
        try #require(lines.count == 2, "\(run.output)")
        #expect(lines[0]["format"] as? String == "jpeg" && lines[0]["width"] as? Int == 810 && lines[0]["height"] as? Int == 1080, "\(lines[0])")
        #expect(lines[0]["frames"] == nil)
        #expect((lines[1]["error"] as? String)?.hasPrefix("cannot open the video: ") == true, "\(lines[1])")
        #expect(lines[1]["file"] as? String == note.path && (lines[1]["error"] as? String)?.contains(note.path) == false, "\(lines[1])")
    }

    /// `info --json` writes its lines without `JSONEncoder`; each must be the bytes `JSONEncoder` writes for the
    /// same members (sorted keys, slashes unescaped, nil members left out), over file names and error messages
    /// holding every control character, quotes, backslashes, DEL and non-ASCII text.
    @Test func infoJSONLinesAreTheBytesJSONEncoderWrites() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try Data(contentsOf: try Fixtures.sample("astronaut.png"))
        // The PNG's size from its IHDR chunk (the PNG spec: big-endian width and height at bytes 16 and 20).
        let size = [16, 20].map { offset in png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        let pool = (1..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }
            + ["\"", "\\", "\u{7f}", " ", "a", "Z", "0", ".", "é", "漢", "😀", "\u{2028}"]
        var random = SeededGenerator(seed: 26)
        let names = [String(pool)] + (0..<30).map { _ in String((0..<12).map { _ in pool.randomElement(using: &random)! }) }
        var paths: [String] = []
        for (index, name) in names.enumerated() {
            let url = folder.appendingPathComponent("\(index)\(name)")
            try (index.isMultiple(of: 2) ? png : Data(name.utf8)).write(to: url)
            paths.append(url.path)
        }
        paths.append(folder.appendingPathComponent("missing \"\\\u{1}é.png").path)

        let run = try Fixtures.run(Self.executable, ["info", "--json"] + paths)
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == paths.count && run.output.last == "\n")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for (index, (line, path)) in zip(lines, paths).enumerated() {
            let report = try JSONDecoder().decode(InfoLine.self, from: Data(line.utf8))
            #expect(report.file == path)
            #expect(try encoder.encode(report) == Data(line.utf8), "\(line)")
            if index < names.count && index.isMultiple(of: 2) {
                #expect([report.width, report.height] == size && report.orientation == 1 && report.format == "png")
                #expect(report.error == nil)
            } else {
                #expect(report.error?.contains(path) == (index == names.count) && report.width == nil)
                #expect(report.error != nil && report.format == nil)
            }
        }
    }

    /// The members of an `info --json` line.
    private struct InfoLine: Codable {
        var file: String
        var width: Int?
        var height: Int?
        var orientation: Int?
        var format: String?
        var error: String?
    }

    @Test func modelDescribesInstalledModels() throws {
        let run = try Fixtures.run(Self.executable, ["model", "--json", "face_detection_short_range.tflite"])
        #expect(run.status == 0, "\(run.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(object["name"] as? String == "Short Range Face Detection")
        let inputs = try #require(object["inputs"] as? [[String: Any]])
        #expect(inputs.first?["shape"] as? [Int] == [1, 128, 128, 3])

        // A model cut in half between two good ones: an error line for it, and the others described.
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try Data(contentsOf: try Fixtures.model("face_detection_short_range.tflite"))
        let half = folder.appendingPathComponent("half.tflite")
        try whole.prefix(whole.count / 2).write(to: half)
        let batch = try Fixtures.run(
            Self.executable, ["model", "--json", "iris_landmark.tflite", half.path, "face_detection_short_range.tflite"])
        #expect(batch.status == 1)
        let lines = Fixtures.jsonLines(batch.output)
        #expect(lines.map { $0["file"] as? String } == ["iris_landmark.tflite", half.path, "face_detection_short_range.tflite"])
        #expect(lines[1]["error"] as? String != nil && lines[0]["inputs"] != nil && lines[2]["inputs"] != nil)
    }
}

@Suite(.serialized) struct FacesCommandTests {
    static let executable = Fixtures.executable

    @Test func reportsFacesOfImagesAsJSONLines() throws {
        let run = try Fixtures.run(Self.executable, ["faces", "--json", "--landmarks", try Fixtures.sample("zidane.jpg").path, try Fixtures.sample("dog.jpg").path])
        #expect(run.status == 0, "\(run.errors)")
        let lines = Fixtures.jsonLines(run.output)
        #expect(lines.count == 2)
        let faces = try #require(lines[0]["faces"] as? [[String: Any]])
        #expect(faces.count == 2 && lines[0]["width"] as? Int == 1280)
        let box = try #require(faces[0]["boundingBox"] as? [String: Double])
        #expect(Set(box.keys) == ["x", "y", "width", "height"])
        let landmarks = try #require(faces[0]["landmarks"] as? [String: [String: Double]])
        #expect(landmarks["leftEye"]?["x"] != nil)
        #expect((lines[1]["faces"] as? [Any])?.isEmpty == true)
    }

    @Test func tracksFacesInVideosAndDrawsThem() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("moving.avi")
        let writer = try VideoWriter(url: video, width: 640, height: 480, framesPerSecond: 25)
        for frame in try MovingFaceVideo.frames().prefix(30) { try writer.append(frame) }
        writer.close()
        let annotated = folder.appendingPathComponent("annotated.avi")
        let run = try Fixtures.run(Self.executable, ["faces", "--json", video.path, "--draw", annotated.path])
        #expect(run.status == 0, "\(run.errors)")
        let lines = Fixtures.jsonLines(run.output)
        #expect(lines.count == 30)
        #expect(lines.map { $0["frame"] as? Int } == (0..<30).map { $0 })
        #expect(lines[1]["timestampMs"] as? Int == 40)
        let ids = Set(lines.compactMap { (($0["faces"] as? [[String: Any]])?.first?["trackingID"]) as? Int })
        #expect(ids.count == 1)
        #expect(Array(try VideoReader(url: annotated)).count == 30)

        // The same video cut at half its length: the frames that are there, then an error line for the
        // cut, exit status 1, and the next input still processed.
        let whole = try Data(contentsOf: video)
        let cut = folder.appendingPathComponent("cut.avi")
        try whole.prefix(whole.count / 2).write(to: cut)
        let partial = try Fixtures.run(Self.executable, ["faces", "--json", cut.path, try Fixtures.sample("zidane.jpg").path])
        #expect(partial.status == 1)
        let partialLines = Fixtures.jsonLines(partial.output)
        let frames = partialLines.filter { $0["frame"] != nil }
        #expect(frames.count > 5 && frames.count < 25, "\(frames.count) frames before the cut")
        #expect(partialLines.contains { ($0["error"] as? String)?.contains("cut short") == true && $0["file"] as? String == cut.path })
        #expect((partialLines.last?["faces"] as? [Any])?.count == 2, "zidane.jpg after the cut video")
    }

    @Test func drawsGlassesOnTheEyes() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("glasses.png")
        let photo = try Fixtures.sample("astronaut.png")
        let run = try Fixtures.run(Self.executable, ["faces", "--glasses", photo.path, "--draw", output.path])
        #expect(run.status == 0, "\(run.errors)")
        let drawn = try VisionImage(contentsOf: output).buffer
        let original = try VisionImage(contentsOf: photo).buffer
        // The bridge of the glasses crosses the nose, between the eyes.
        let bridge = (195..<255).filter { Fixtures.pixel(drawn, $0, 112) != Fixtures.pixel(original, $0, 112) }
        #expect(!bridge.isEmpty)
        let refused = try Fixtures.run(Self.executable, ["faces", "--glasses", photo.path])
        #expect(refused.status != 0)
    }
}

@Suite(.serialized) struct ObjectCommandTests {
    static let executable = Fixtures.executable

    @Test func detectsObjectsInImagesAndTracksThemInVideos() throws {
        let run = try Fixtures.run(Self.executable, ["objects", "--json", "--multiple", "--classify", try Fixtures.sample("bus.jpg").path])
        #expect(run.status == 0, "\(run.errors)")
        let line = try #require(Fixtures.jsonLines(run.output).first)
        let objects = try #require(line["objects"] as? [[String: Any]])
        // Several objects, at most ML Kit's 5: YOLOv4-tiny (the default) finds the bus and 3 of its 4 people.
        #expect((4...5).contains(objects.count))
        let labels = objects.compactMap { ($0["labels"] as? [[String: Any]])?.last?["text"] as? String }
        #expect(labels.contains("bus") && labels.contains("person"))
        #expect(objects.allSatisfy { $0["trackingID"] == nil && $0["frame"] is [String: Double] })
        // The upright size, as the faces, pose, hands and segment lines give it: bus.jpg is 810 × 1080.
        #expect(line["width"] as? Int == 810 && line["height"] as? Int == 1080)

        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("objects.avi")
        let writer = try VideoWriter(url: video, width: 640, height: 480, framesPerSecond: 25)
        for frame in try MovingObjectsVideo.frames().prefix(12) { try writer.append(frame) }
        writer.close()
        let stream = try Fixtures.run(Self.executable, ["objects", "--json", "--multiple", video.path, "--draw", folder.appendingPathComponent("out.avi").path])
        #expect(stream.status == 0, "\(stream.errors)")
        let frames = Fixtures.jsonLines(stream.output)
        #expect(frames.count == 12 && frames.last?["frame"] as? Int == 11)
        #expect(frames.allSatisfy { $0["width"] as? Int == 640 && $0["height"] as? Int == 480 })
        let ids = frames.map { Set((($0["objects"] as? [[String: Any]]) ?? []).compactMap { $0["trackingID"] as? Int }) }
        #expect(ids.first == ids.last && ids.first?.count ?? 0 >= 2)
    }

    @Test func tracksSeedBoxesAndReportsWhenTheyAreLost() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = folder.appendingPathComponent("person.avi")
        let (frames, truth) = try SeededTrackingVideo.frames()
        let writer = try VideoWriter(url: video, width: 640, height: 480, framesPerSecond: 25)
        for frame in frames { try writer.append(frame) }
        writer.close()
        let seed = truth[0]
        let run = try Fixtures.run(Self.executable, [
            "track", "--json", video.path, "--box", "\(Int(seed.minX)),\(Int(seed.minY)),\(Int(seed.width)),\(Int(seed.height))", "--level", "fast",
        ])
        #expect(run.status == 0, "\(run.errors)")
        let lines = Fixtures.jsonLines(run.output)
        #expect(lines.count == frames.count)
        let tracks = lines.compactMap { ($0["tracks"] as? [[String: Any]])?.first }
        #expect(tracks.prefix(30).allSatisfy { $0["lost"] as? Bool == false && $0["id"] as? Int == 1 })
        #expect(tracks.last?["lost"] as? Bool == true)
        // Exactly four finite numbers, the size positive: each of these is refused before any frame is read.
        for box in ["1,2,3", "1,x,2,3,4", "nan,1,2,3", "1,inf,2,3", "1,2,-3,4", "1,2,3,", ",1,2,3"] {
            let invalid = try Fixtures.run(Self.executable, ["track", video.path, "--box", box])
            #expect(invalid.status == 64, "--box \(box): \(invalid.errors)")
            #expect(invalid.output.isEmpty && invalid.errors.contains("--box"), "--box \(box)")
        }
    }
}
