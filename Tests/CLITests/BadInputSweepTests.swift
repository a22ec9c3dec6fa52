import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore

/// Every command over a batch "good photo, each bad input, good photo" (issue 17): one JSON line per
/// input, an error line for each bad one, results for the good ones (the batch goes on), exit status 1,
/// no crash and no stack trace. The bad inputs are made in a temporary folder with known faults.
@Suite(.serialized) final class BadInputSweepTests {
    let folder: URL
    /// A small real photo, and a copy of it under an odd name (quotes, a newline, non-ASCII).
    let good: String, oddlyNamed: String
    /// Inputs that must each get an error line.
    var bad: [String] = []
    /// The reason each error line of some bad inputs must end with: folders named as an image and as a
    /// video, and a missing file.
    var reasons: [String: String] = [:]
    /// What an empty folder's error line ends with: a task command reads folders (there is nothing in this
    /// one), `info` reads only files.
    static let folderReason = "no image or video in it or its subfolders"
    /// Valid images of extreme sizes (1×1, 20000×20): processed like any other.
    var extreme: [String] = []

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        let photo = try Fixtures.image("dog.jpg").resized(width: 192, height: 144)
        good = folder.appendingPathComponent("good.jpg").path
        oddlyNamed = folder.appendingPathComponent("odd \"name\"\n\u{E9}\u{2713}.jpg").path
        for path in [good, oddlyNamed] { try photo.write(to: URL(fileURLWithPath: path)) }
        let jpeg = try Data(contentsOf: try Fixtures.sample("bus.jpg"))
        let png = try Data(contentsOf: try Fixtures.sample("astronaut.png"))
        let webp = try #require(try Fixtures.smallImages(in: folder)["webp"])
        let files = BadInputs.corruptFiles(jpeg: jpeg, png: png, webp: webp, seed: 17)
        for (name, data) in files {
            try data.write(to: folder.appendingPathComponent(name))
            bad.append(folder.appendingPathComponent(name).path)
        }
        let directories = ["folder.jpg", "folder.mp4"].map { folder.appendingPathComponent($0).path }
        for directory in directories {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            reasons[directory] = Self.folderReason
        }
        let missing = folder.appendingPathComponent("missing.png").path
        reasons[missing] = "no such file"
        // Root reads any file whatever its mode: a link to /proc/self/mem, which fails to read (EIO), stands in.
        let unreadable = folder.appendingPathComponent("unreadable.jpg")
        if geteuid() == 0 {
            try FileManager.default.createSymbolicLink(atPath: unreadable.path, withDestinationPath: "/proc/self/mem")
        } else {
            try photo.write(to: unreadable)
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: unreadable.path)
        }
        bad += directories + [missing, unreadable.path]
        for (name, data) in try BadInputs.extremeImages(seed: 17) {
            extreme.append(folder.appendingPathComponent(name).path)
            try data.write(to: URL(fileURLWithPath: extreme.last!))
        }
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Runs the command; checks the exit status, that it did not crash and that every line is JSON.
    static func run(_ arguments: [String], status: Int32) throws -> (lines: [[String: Any]], errors: String) {
        let run = try Fixtures.run(Fixtures.executable, arguments, timeout: 60)
        #expect(run.status == status, "\(arguments.prefix(3)): \(run.errors.suffix(1500))")
        #expect(!run.output.contains("\u{FFFD}") && !run.errors.contains("\u{FFFD}"), "output is valid UTF-8")
        for marker in ["Fatal error", "Stack dump", "Backtrace", "Thread 0 crashed", "Segmentation fault"] {
            #expect(!run.errors.contains(marker), "\(arguments.prefix(3)): \(run.errors.suffix(1500))")
        }
        let lines = try run.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "not JSON: \($0.prefix(200))")
        }
        return (lines, run.errors)
    }

    @Test(arguments: ["info", "faces", "objects", "pose", "hands", "segment", "rectangles", "barcodes", "text", "labels", "embeddings"])
    func everyImageCommandReportsEachBadInputAndGoesOn(command: String) throws {
        let inputs = [good] + bad + extreme + [oddlyNamed]
        let run = try Self.run([command, "--json"] + inputs, status: 1)
        #expect(run.lines.map { $0["file"] as? String } == inputs, "one line per input, named as given")
        try #require(run.lines.count == inputs.count)
        for (input, line) in zip(inputs, run.lines) {
            let message = line["error"] as? String
            if bad.contains(input) {
                #expect(message?.isEmpty == false, "\(command) \(input): \(line)")
                #expect(message?.contains("NSCocoaErrorDomain") == false, "a reason in words: \(message ?? "")")
                if var reason = reasons[input] {
                    if command == "info" && reason == Self.folderReason { reason = "it is a folder, not a file" }
                    #expect(message?.hasSuffix(": \(reason)") == true, "\(command) \(input): \(message ?? "")")
                }
            } else {
                #expect(message == nil, "\(command) \(input): \(message ?? "")")
                #expect(line.count > 1, "\(command) \(input) has results")
            }
        }
    }

    /// libpng, libjpeg and FFmpeg print nothing of their own on a cut or damaged PNG, a damaged JPEG, random
    /// bytes named .mp4, an MP4 cut before its index and a BMP whose compression field OpenCV refuses:
    /// standard error holds only the command's own line per failed input. With `--verbose` their messages
    /// come back, which shows these inputs reach the codecs.
    @Test func theCodecsStayQuietWithoutVerbose() throws {
        let damagedPNG = folder.appendingPathComponent("damaged.png")
        let damagedJPEG = folder.appendingPathComponent("damaged.jpg")
        try BadInputs.damagedInTheMiddle(try Data(contentsOf: try Fixtures.sample("astronaut.png"))).write(to: damagedPNG)
        try BadInputs.damagedInTheMiddle(try Data(contentsOf: try Fixtures.sample("bus.jpg"))).write(to: damagedJPEG)
        let video = folder.appendingPathComponent("whole.mp4"), cutVideo = folder.appendingPathComponent("cut.mp4")
        let frame = try VisionImage(contentsOf: URL(fileURLWithPath: good))
        let writer = try VideoWriter(url: video, width: frame.width, height: frame.height, framesPerSecond: 10)
        for _ in 0..<4 { try writer.append(frame) }
        writer.close()
        let whole = try Data(contentsOf: video)
        try whole.prefix(whole.count / 2).write(to: cutVideo)
        // BITMAPINFOHEADER's compression (byte 30) set to 7, a method BMP does not define.
        var bmp = [UInt8](try frame.encoded(fileExtension: ".bmp", quality: 0))
        bmp[30] = 7
        let badBMP = folder.appendingPathComponent("compression.bmp")
        try Data(bmp).write(to: badBMP)
        let cut = try #require(bad.first { $0.hasSuffix("/cut.png") }), noise = try #require(bad.first { $0.hasSuffix("/random.mp4") })
        let failing = [cut, damagedPNG.path, noise, cutVideo.path, badBMP.path]
        let inputs = failing + [damagedJPEG.path]
        let quiet = try Self.run(["faces", "--json"] + inputs, status: 1)
        #expect(quiet.lines.map { $0["error"] != nil } == [true, true, true, true, true, false], "\(quiet.lines)")
        let own = failing.map { path in "\(path): " }
        let lines = quiet.errors.split(separator: "\n").map(String.init)
        #expect(lines.count == own.count && zip(lines, own).allSatisfy { $0.hasPrefix($1) }, "\(quiet.errors)")
        let verbose = try Self.run(["faces", "--json", "--verbose"] + inputs, status: 1)
        for message in ["libpng error: IDAT: CRC error", "Corrupt JPEG data", "moov atom not found", "can't read header"] {
            #expect(verbose.errors.contains(message), "\(verbose.errors.suffix(1500))")
        }
    }

    /// Leptonica, Tesseract's image library, prints nothing of its own on the 20000×20 strip of noise, where
    /// it would print "Error in boxClipToRectangle: box outside rectangle": standard error stays empty. With
    /// `--verbose` its messages come back, which shows the strip reaches it.
    @Test func leptonicaStaysQuietWithoutVerbose() throws {
        let wide = try #require(extreme.first { $0.hasSuffix("/wide.png") })
        let quiet = try Self.run(["text", "--json", "--level", "fast", wide], status: 0)
        #expect(quiet.lines.count == 1 && quiet.lines.first?["error"] == nil, "\(quiet.lines)")
        #expect(quiet.errors.isEmpty, "\(quiet.errors.suffix(1500))")
        let verbose = try Self.run(["text", "--json", "--level", "fast", "--verbose", wide], status: 0)
        #expect(verbose.errors.contains("Error in boxClipToRectangle"), "\(verbose.errors.suffix(1500))")
    }

    @Test func modelReportsEachBadModelAndGoesOn() throws {
        let whole = try Data(contentsOf: try Fixtures.model("selfie_segmentation.tflite"))
        let cut = folder.appendingPathComponent("cut.tflite")
        try whole.prefix(whole.count / 2).write(to: cut)
        var random = SeededGenerator(seed: 5)
        let noise = folder.appendingPathComponent("random.tflite")
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }).write(to: noise)
        let models = [noise.path, cut.path] + bad.filter { !$0.hasSuffix("mem") }
        let inputs = ["iris_landmark.tflite"] + models + ["face_detection_short_range.tflite"]
        let run = try Self.run(["model", "--json"] + inputs, status: 1)
        #expect(run.lines.map { $0["file"] as? String } == inputs)
        #expect(run.lines.first?["inputs"] != nil && run.lines.last?["inputs"] != nil)
        #expect(run.lines.dropFirst().dropLast().allSatisfy { ($0["error"] as? String)?.isEmpty == false }, "\(run.lines)")
    }

    @Test(arguments: ["labels", "embeddings", "objects"])
    func aModelWithTheWrongOutputsIsOneErrorLine(command: String) throws {
        let wrong = try Fixtures.model("pose_detection.tflite").path
        let run = try Self.run([command, "--json", "--model", wrong, good], status: 1)
        #expect(run.lines.count == 1 && run.lines.first?["file"] as? String == wrong)
        #expect((run.lines.first?["error"] as? String)?.contains("pose_detection.tflite") == true, "\(run.lines)")
    }

    @Test(arguments: [
        ["faces", "--threshold", "5"], ["faces", "--threshold=-1"], ["faces", "--threshold", "nan"],
        ["objects", "--threshold", "5"], ["objects", "--threshold=-1"], ["labels", "--threshold", "5"],
        ["labels", "--threshold", "nan"], ["pose", "--min-detection-confidence", "5"],
        ["hands", "--min-detection-confidence", "nan"], ["segment", "--smoothing", "2"],
    ])
    func outOfRangeOptionsAreUsageErrors(arguments: [String]) throws {
        let run = try Self.run(arguments + ["--json", good], status: 64)
        #expect(run.lines.isEmpty)
        #expect(run.errors.contains("Error: ") && (run.errors.contains("0…1") || run.errors.contains("0–1")), "\(run.errors)")
    }

    /// Every option error the labeler and the text recognizer can be given from the command line is a usage
    /// error (64), as `ClassificationError.isInvalidOption` and `VisionTaskError.isInvalidOption` classify them.
    @Test func labelerAndLanguageOptionErrorsAreUsageErrors() throws {
        let custom = try Fixtures.model("efficientnet_lite0_classifier_fp16.tflite").path
        let cases: [([String], String)] = [
            (["labels", "--max", "0"], ClassificationError.invalidMaxResultCount(0).description),
            (["labels", "--general", "--model", custom], ClassificationError.generalLabelsNeedBaseModel.description),
            (["text", "--lang", "xyz"], "no Tesseract data for language xyz"),
        ]
        for (arguments, message) in cases {
            let run = try Self.run(arguments + ["--json", good], status: 64)
            #expect(run.lines.isEmpty && run.errors.contains(message), "\(arguments): \(run.errors)")
        }
    }

    /// General labels asked for where set-up has not written them (a cache without the file, or with a
    /// garbled one) are a failure of the installation, status 1 with the fix, not a usage error.
    @Test func missingGeneralLabelsAreASetUpFailureNotAUsageError() throws {
        let cache = folder.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache.appendingPathComponent("labels"), withIntermediateDirectories: true)
        for entry in try FileManager.default.contentsOfDirectory(atPath: Fixtures.cache.root.path) where entry != "labels" {
            try FileManager.default.createSymbolicLink(
                at: cache.appendingPathComponent(entry), withDestinationURL: Fixtures.cache.root.appendingPathComponent(entry))
        }
        let labels = cache.appendingPathComponent("labels/general_labels.json")
        for (contents, message) in [(nil, "the general labels are not installed"), ("{}", "cannot be used")] {
            try? FileManager.default.removeItem(at: labels)
            if let contents { try Data(contents.utf8).write(to: labels) }
            let run = try Fixtures.run(
                Fixtures.executable, ["labels", "--general", "--json", good], environment: ["SWIFTVISION_CACHE": cache.path],
                timeout: 60)
            #expect(run.status == 1, "\(run.errors)")
            #expect((run.output + run.errors).contains(message) && (run.output + run.errors).contains("build-general-labels.py"))
        }
    }

    @Test func badTrackingBoxesAreRefusedClearly() throws {
        let video = folder.appendingPathComponent("clip.mp4")
        let frame = try VisionImage(contentsOf: URL(fileURLWithPath: good))
        let writer = try VideoWriter(url: video, width: frame.width, height: frame.height, framesPerSecond: 10)
        for _ in 0..<4 { try writer.append(frame) }
        writer.close()
        for box in ["nan,0,10,10", "0,0,inf,10", "10,10,0,5", "1,2,3"] {
            let run = try Self.run(["track", "--json", "--box=\(box)", video.path], status: 64)
            #expect(run.lines.isEmpty && run.errors.contains("--box \(box) is not four finite numbers"), "\(run.errors)")
        }
        let offImage = try Self.run(["track", "--json", "--box", "1000,1000,20,20", video.path], status: 1)
        let message = try #require(offImage.lines.first?["error"] as? String)
        #expect(offImage.lines.count == 1 && message.contains("is not inside the 192×144 frame"), "\(message)")
        // A box partly off the image is clipped to it, as Vision does.
        let partly = try Self.run(["track", "--json", "--box=-5,-5,40,40", video.path], status: 0)
        #expect(partly.lines.count == 4 && partly.lines.allSatisfy { $0["tracks"] != nil })
        let noise = try Self.run(["track", "--json", "--box", "10,10,20,20", bad[5]], status: 1)
        #expect(noise.lines.count == 1 && noise.lines.first?["error"] != nil)
    }
}
