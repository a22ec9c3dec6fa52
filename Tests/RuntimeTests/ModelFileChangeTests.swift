import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionRuntime

/// Model and packed-weight files that change on disk under a process using them: cut short, overwritten in
/// place, or rolled (a new file renamed over the old one). A process keeps its own copies, so nothing it
/// runs can crash (a mapped file cut short raised `SIGBUS`), and it picks up a rolled model before its next
/// inference.
@Suite struct ModelFileChangeTests {
    /// The output lines of the real command-line tool run on `arguments` plus two copies of `photo`, the
    /// second handed over through a pipe only once the first is done, after `change` ran; with its own cache
    /// folder `cache` (models copied in), so that nothing of the shared cache changes.
    static func run(
        _ arguments: [String], photo: String, cache: URL, change: () throws -> Void
    ) throws -> (status: Int32, lines: [String], errors: String) {
        let pipe = cache.deletingLastPathComponent().appendingPathComponent("second.jpg")
        try #require(mkfifo(pipe.path, 0o600) == 0)
        let process = Process()
        process.executableURL = Fixtures.executable
        process.arguments = arguments + [try Fixtures.sample(photo).path, pipe.path]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "SWIFTVISION_CACHE": cache.path, "SWIFTVISION_LITERT_LIBRARY": Fixtures.cache.runtimeLibrary.path,
        ]) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The pipe opens for writing once the command reads it: the first photo is done by then.
        var writer: Int32 = -1
        for _ in 0..<6000 where process.isRunning {
            writer = open(pipe.path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if writer >= 0 { break }
            usleep(10_000)
        }
        try #require(writer >= 0, "the command did not get to its second photo")
        try change()
        let photoBytes = try Data(contentsOf: try Fixtures.sample(photo))
        _ = fcntl(writer, F_SETFL, 0)
        try FileHandle(fileDescriptor: writer, closeOnDealloc: true).write(contentsOf: photoBytes)
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        let messages = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return (status, lines, messages)
    }

    /// A line of output without its `"file"` entry, to compare the two photos' results.
    static func result(_ line: String) -> String {
        line.replacingOccurrences(of: #"^\{"file":"[^"]*","#, with: "{", options: .regularExpression)
    }

    /// A cache folder with copies of the installed models, in a fresh temporary folder.
    static func privateCache() throws -> URL {
        let cache = try Fixtures.temporaryDirectory().appendingPathComponent("cache", isDirectory: true)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Fixtures.cache.models, to: cache.appendingPathComponent("models"))
        return cache
    }

    /// YOLOv3-tiny runs some operators outside XNNPACK, which read the model's weights at each inference: from
    /// the file LiteRT mapped, cut short here (SIGBUS, status 135), until models were read from a private copy.
    @Test func modelFilesCutShortUnderARunningCommandChangeNothingForIt() throws {
        let cache = try Self.privateCache()
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        // The model files only: the cache may also hold the model manager's `downloaded` folders.
        let models = try FileManager.default.contentsOfDirectory(at: cache.appendingPathComponent("models"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "tflite" }
        try #require(!models.isEmpty)
        let run = try Self.run(["objects", "--json"], photo: "bus.jpg", cache: cache) {
            for model in models { try #require(truncate(model.path, 0) == 0) }
        }
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.lines.count == 2 && run.lines[0].contains("\"objects\":[{"), "\(run.lines)")
        #expect(run.lines.count == 2 && Self.result(run.lines[0]) == Self.result(run.lines[1]))
    }

    /// XNNPACK ran its packed weights from the cache file it mapped: cut short or overwritten, the next
    /// inference raised SIGBUS; now it maps a copy in memory, and the damaged file is packed anew next time.
    @Test(arguments: ["cut short", "overwritten"])
    func aPackedWeightFileDamagedUnderARunningCommandChangesNothingForIt(_ damage: String) throws {
        let cache = try Self.privateCache()
        defer { try? FileManager.default.removeItem(at: cache.deletingLastPathComponent()) }
        let model = cache.appendingPathComponent("models/efficientnet_lite0_classifier_fp16.tflite")
        let arguments = ["labels", "--json", "--threshold", "0", "--max", "3", "--model", model.path]
        let packed = cache.appendingPathComponent("packed-weights")
        let run = try Self.run(arguments, photo: "dog.jpg", cache: cache) {
            let files = try FileManager.default.contentsOfDirectory(at: packed, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "xnnpack" }
            try #require(files.count == 1)
            if damage == "cut short" {
                try #require(truncate(files[0].path, 0) == 0)
            } else {
                // Rewritten in place, as `cp` or a careless repair would: the middle, where weights lie.
                let handle = try FileHandle(forWritingTo: files[0])
                try handle.seek(toOffset: try handle.seekToEnd() / 2)
                try handle.write(contentsOf: Data(repeating: 0xA5, count: 1 << 20))
                try handle.close()
            }
        }
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.lines.count == 2 && run.lines[0].contains("\"labels\":[{"), "\(run.lines)")
        #expect(run.lines.count == 2 && Self.result(run.lines[0]) == Self.result(run.lines[1]))
    }

    /// A model rolled as docs/deploy.md says (the new file written aside, then renamed over the old one) is
    /// loaded again before the interpreter's next inference, and new callers of the store get it too. A file
    /// that cannot replace the model (other inputs and outputs, or still being written in place) leaves the
    /// model loaded before running, until the file changes again.
    @Test func aRolledModelIsLoadedAgainBeforeTheNextInference() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("classifier.tflite")
        let fp16 = try Fixtures.model("efficientnet_lite0_classifier_fp16.tflite")
        let fp32 = try Fixtures.model("efficientnet_lite0_classifier.tflite")
        func roll(to model: URL) throws {
            let aside = folder.appendingPathComponent(".classifier.tflite.new")
            try FileManager.default.copyItem(at: model, to: aside)
            try #require(rename(aside.path, file.path) == 0)
        }
        try roll(to: fp16)
        let store = ModelStore(parallelInferences: 1)
        let options = PackedWeightCacheTests.options(folder: folder.appendingPathComponent("packed"))
        let interpreter = try store.interpreter(contentsOf: file, options: options)
        let input = try InterpreterTests.input(for: "dog.jpg", interpreter: interpreter)
        let first = try interpreter.invoke(inputs: [input])
        #expect(first == (try PackedWeightCacheTests.outputs(of: fp16, folder: nil, photo: "dog.jpg")))
        let rolled = try PackedWeightCacheTests.outputs(of: fp32, folder: nil, photo: "dog.jpg")
        #expect(rolled != first)

        try roll(to: fp32)
        #expect(try interpreter.invoke(inputs: [input]) == rolled)
        #expect(try store.interpreter(contentsOf: file, options: options).invoke(inputs: [input]) == rolled)

        try roll(to: try Fixtures.model("face_detection_short_range.tflite"))
        #expect(try interpreter.invoke(inputs: [input]) == rolled, "other inputs: the loaded model goes on")
        let whole = try Data(contentsOf: fp16)
        try whole.prefix(whole.count / 3).write(to: file)
        #expect(try interpreter.invoke(inputs: [input]) == rolled, "half-written: the loaded model goes on")

        try roll(to: fp16)
        #expect(try interpreter.invoke(inputs: [input]) == first)
        // Four versions of the file loaded (the half-written one could not be); the interpreter that a new caller
        // got for the rolled file is the only other compilation.
        #expect(store.statistics.modelsLoaded == 4 && store.statistics.compilations == 2, "\(store.statistics)")
    }
}
