import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore

/// Every task command reads its inputs through one loop: videos, folders and the camera reach `text`,
/// `barcodes`, `rectangles`, `labels` and `embeddings` as they reach `faces`, with the same lines, and the
/// commands' earlier names still run them.
@Suite struct TaskInputCommandLineTests {
    static let executable = Fixtures.executable

    /// An MJPEG AVI at 5 fps whose `count` frames are all the sample photo `name`.
    static func stillVideo(of name: String, count: Int, at url: URL) throws -> URL {
        let photo = try Fixtures.image(name)
        let writer = try VideoWriter(url: url, width: photo.width, height: photo.height, framesPerSecond: 5)
        for _ in 0..<count { try writer.append(photo) }
        writer.close()
        return url
    }

    /// Each line of `output` as a JSON object; nil for a line that is not one.
    static func objects(_ output: String) -> [[String: Any]?] {
        output.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// `faces -` reads the image on standard input, as Unix tools take `-`: zidane.jpg through a pipe gives the
    /// line the file named gives (whose faces other tests hold to MediaPipe's), naming the input "-"; an empty
    /// pipe is an error line.
    @Test func aDashReadsTheImageOnStandardInput() throws {
        let photo = try Fixtures.sample("zidane.jpg")
        let named = try Fixtures.run(Self.executable, ["faces", "--json", photo.path])
        let piped = try Fixtures.run(Self.executable, ["faces", "--json", "-"], input: try Data(contentsOf: photo))
        #expect(named.status == 0 && piped.status == 0, "\(piped.errors)")
        var expected = try #require(Self.objects(named.output).first ?? nil, "\(named.output)")
        expected["file"] = "-"
        let line = try #require(Self.objects(piped.output).first ?? nil, "\(piped.output)")
        #expect(try JSONSerialization.data(withJSONObject: line, options: .sortedKeys)
            == JSONSerialization.data(withJSONObject: expected, options: .sortedKeys))
        let empty = try Fixtures.run(Self.executable, ["faces", "--json", "-"], input: Data())
        #expect(empty.status == 1)
        let error = try #require(Self.objects(empty.output).first ?? nil, "\(empty.output)")
        #expect(error["file"] as? String == "-" && (error["error"] as? String)?.contains("empty") == true, "\(error)")
    }

    /// `info -` reads the image on standard input as the task commands do: zidane.jpg through a pipe is
    /// described as the file named is (its JPEG header: 1280×720, orientation 1), named "-".
    @Test func infoReadsTheImageOnStandardInput() throws {
        let photo = try Fixtures.sample("zidane.jpg")
        let piped = try Fixtures.run(Self.executable, ["info", "--json", "-"], input: try Data(contentsOf: photo))
        #expect(piped.status == 0, "\(piped.output) \(piped.errors)")
        let line = try #require(Self.objects(piped.output).first ?? nil, "\(piped.output)")
        #expect(line["file"] as? String == "-" && line["width"] as? Int == 1280 && line["height"] as? Int == 720, "\(line)")
        #expect(line["format"] as? String == "jpeg" && line["orientation"] as? Int == 1, "\(line)")
    }

    /// `text VIDEO`: a line per frame with its position and time, each reading scikit-image's page.png as a
    /// person reads it (Fixtures.pageWords).
    @Test func textReadsEveryFrameOfAVideo() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.stillVideo(of: "page.png", count: 3, at: folder.appendingPathComponent("page.avi"))
        let run = try Fixtures.run(Self.executable, ["text", "--json", video.path])
        #expect(run.status == 0, "\(run.errors)")
        let lines = Self.objects(run.output).compactMap { $0 }
        try #require(lines.count == 3, "\(run.output)")
        #expect(lines.allSatisfy { $0["file"] as? String == video.path })
        #expect(lines.map { $0["frame"] as? Int } == [0, 1, 2])
        let times = lines.compactMap { $0["timestampMs"] as? Int }
        #expect(times.count == 3 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times)")
        for line in lines {
            let words = (line["text"] as? String ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
            let found = Fixtures.pageWords.filter(words.contains)
            #expect(Double(found.count) >= 0.9 * Double(Fixtures.pageWords.count), "read \(words)")
        }
    }

    /// Off a terminal, progress is a line on standard error once the work has gone on for 10 s, then at most
    /// every 10 s (`SWIFTVISION_PROGRESS_SECONDS`; 0 writes one for each step): an image run or a video's
    /// frames counted against their total (a 3-frame video written here, two photos). A short run with the
    /// default interval writes nothing there.
    @Test func progressOffATerminalIsALineNowAndThen() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.stillVideo(of: "pyzbar-qrcode.png", count: 3, at: folder.appendingPathComponent("qr.avi"))
        let photos = try ["pyzbar-code128.png", "bus.jpg"].map { try Fixtures.sample($0).path }
        let arguments = ["barcodes", "--json", photos[0], video.path, photos[1]]
        let stepwise = try Fixtures.run(Self.executable, arguments, environment: ["SWIFTVISION_PROGRESS_SECONDS": "0"])
        #expect(stepwise.status == 0, "\(stepwise.errors)")
        #expect(stepwise.errors == """
            barcodes: 1/2 images
            qr.avi: 1/3 frames
            qr.avi: 2/3 frames
            qr.avi: 3/3 frames
            barcodes: 2/2 images

            """)
        // The default interval (the harness holds progress back for an hour unless asked).
        let quiet = try Fixtures.run(Self.executable, arguments, environment: ["SWIFTVISION_PROGRESS_SECONDS": "10"])
        #expect(quiet.status == 0 && quiet.errors.isEmpty, "\(quiet.errors)")
        #expect(quiet.output == stepwise.output)
    }

    /// `barcodes --camera N` goes through the same loop as a video: with no camera N on this machine it is
    /// an error line naming the camera, after the video's frames (pyzbar's test QR code, "Thalassiodracon")
    /// and a broken file's error line; every line is JSON and the run ends with status 1. Standard error
    /// holds the two inputs' notes and nothing else: OpenCV's own warning about the camera (its videoio's
    /// "[ WARN:0@…] global …/cap_v4l.cpp (902) open VIDEOIO(V4L2:/dev/videoN): can't open camera by index")
    /// shows only with `--verbose`, as the codecs' messages do.
    @Test func barcodesTakeACameraAfterVideosAndFiles() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.stillVideo(of: "pyzbar-qrcode.png", count: 2, at: folder.appendingPathComponent("qr.avi"))
        let broken = folder.appendingPathComponent("broken.png")
        try Data("no picture".utf8).write(to: broken)
        let camera = (0..<64).first { !FileManager.default.fileExists(atPath: "/dev/video\($0)") } ?? 64
        let run = try Fixtures.run(Self.executable, ["barcodes", "--json", "--camera", "\(camera)", video.path, broken.path])
        #expect(run.status == 1)
        let parsed = Self.objects(run.output)
        #expect(parsed.allSatisfy { $0 != nil }, "\(run.output)")
        let lines = parsed.compactMap { $0 }
        try #require(lines.count == 4, "\(run.output)")
        for (index, line) in lines.prefix(2).enumerated() {
            let texts = (line["barcodes"] as? [[String: Any]])?.compactMap { $0["text"] as? String }
            #expect(line["file"] as? String == video.path && line["frame"] as? Int == index && texts == ["Thalassiodracon"])
            #expect(line["timestampMs"] is Int)
        }
        #expect(lines[2]["file"] as? String == broken.path && lines[2]["error"] is String)
        #expect(lines[3]["file"] as? String == "camera:\(camera)")
        #expect((lines[3]["error"] as? String)?.contains("/dev/video\(camera)") == true, "\(lines[3])")
        let notes = run.errors.split(separator: "\n")
        #expect(notes.count == 2 && notes[0].hasPrefix(broken.path + ": ") && notes[1].hasPrefix("camera:\(camera): "), "\(run.errors)")
        let verbose = try Fixtures.run(Self.executable, ["barcodes", "--verbose", "--camera", "\(camera)"])
        #expect(verbose.status == 1 && verbose.errors.contains("can't open camera by index"), "\(verbose.errors)")
    }

    /// A live source, read as the camera is (frames timed by their arrival): `barcodes` over a video served
    /// over HTTP reads the QR code in every frame.
    @Test func barcodesFollowALiveStream() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.stillVideo(of: "pyzbar-qrcode.png", count: 5, at: folder.appendingPathComponent("qr.avi"))
        let run = try LiveSourceCommandTests.runServing(video, ["barcodes", "--json"])
        #expect(run.status == 0, "\(run.errors)")
        let lines = Self.objects(run.output).compactMap { $0 }
        #expect(lines.count == 5 && lines.allSatisfy { $0["file"] as? String == run.url })
        #expect(lines.map { $0["frame"] as? Int } == Array(0..<5))
        #expect(lines.allSatisfy { (($0["barcodes"] as? [[String: Any]])?.first?["text"] as? String) == "Thalassiodracon" })
        let times = lines.compactMap { $0["timestampMs"] as? Int }
        #expect(times.count == 5 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times)")
    }

    /// A folder stands for its images and videos at any depth, in path order: `labels` reads the sample
    /// espresso cup (coffee.png, ImageNet class 967) as a photo and as each frame of a video, and `rectangles`
    /// finds the sudoku grid's top-left corner (72, 85) in each frame.
    @Test func labelsAndRectanglesTakeFoldersAndVideos() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let nested = folder.appendingPathComponent("a/b")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Fixtures.sample("coffee.png"), to: nested.appendingPathComponent("cup.png"))
        _ = try Self.stillVideo(of: "coffee.png", count: 2, at: folder.appendingPathComponent("cup.avi"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))

        let run = try Fixtures.run(Self.executable, ["labels", "--json", folder.path])
        #expect(run.status == 0, "\(run.errors)")
        let lines = Self.objects(run.output).compactMap { $0 }
        let root = folder.path + "/"
        #expect(lines.map { $0["file"] as? String } == [root + "a/b/cup.png", root + "cup.avi", root + "cup.avi"])
        #expect(lines.map { $0["frame"] as? Int } == [nil, 0, 1])
        #expect(lines.allSatisfy { (($0["labels"] as? [[String: Any]])?.first?["index"] as? Int) == 967 }, "\(run.output)")

        let grid = try Self.stillVideo(of: "sudoku.png", count: 2, at: folder.appendingPathComponent("grid.avi"))
        let rectangles = try Fixtures.run(Self.executable, ["rectangles", "--json", grid.path])
        #expect(rectangles.status == 0, "\(rectangles.errors)")
        let corners = Self.objects(rectangles.output).map { (($0?["rectangles"] as? [[String: Any]])?.first?["topLeft"] as? [String: Double]) }
        #expect(corners.count == 2)
        #expect(corners.allSatisfy { abs(($0?["x"] ?? 0) - 72) < 3 && abs(($0?["y"] ?? 0) - 85) < 3 }, "\(corners)")
    }

    /// `detect`, `label` and `embed` are aliases: the same arguments print the same lines as `objects`,
    /// `labels` and `embeddings`.
    @Test(arguments: [("detect", "objects"), ("label", "labels"), ("embed", "embeddings")])
    func earlierNamesRunTheSameCommands(earlier: String, name: String) throws {
        let photo = try Fixtures.sample("bus.jpg").path
        let old = try Fixtures.run(Self.executable, [earlier, "--json", photo])
        let new = try Fixtures.run(Self.executable, [name, "--json", photo])
        #expect(old.status == 0 && new.status == 0, "\(old.errors) \(new.errors)")
        #expect(!new.output.isEmpty && old.output == new.output)
    }

    /// Every task of `swiftvision tasks` is a command of that name, whose help opens with the task's summary.
    @Test func everyTaskIsACommandOfItsName() throws {
        let listing = try Fixtures.run(Self.executable, ["tasks", "--json"])
        let tasks = try #require(try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [[String: Any]])
        #expect(tasks.count >= 11)
        for task in tasks {
            let name = try #require(task["name"] as? String)
            let summary = try #require(task["summary"] as? String)
            let help = try Fixtures.run(Self.executable, [name, "--help"])
            let words = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(help.status == 0 && words.hasPrefix("OVERVIEW: \(summary)."), "\(name): \(words.prefix(120))")
        }
    }
}
