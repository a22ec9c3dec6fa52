import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionRuntime

/// XNNPACK's packed weights kept in files between compilations: written once per model file, read by
/// every later compilation, never used for another model, and with the same outputs as packing anew
/// (LiteRT without the file is the reference; RuntimeTests checks the cached path against Python's).
@Suite struct PackedWeightCacheTests {
    static func options(folder: URL?) -> LiteRT.CompilationOptions {
        var options = LiteRT.CompilationOptions(threadCount: 1)
        options.packedWeightCache = folder.map { PackedWeightCache(folder: $0) }
        return options
    }

    static func outputs(of model: URL, folder: URL?, photo: String = "astronaut.png") throws -> [Data] {
        let interpreter = try Interpreter(contentsOf: model, options: options(folder: folder))
        return try interpreter.invoke(inputs: [try InterpreterTests.input(for: photo, interpreter: interpreter)])
    }

    /// The packed-weight files in `folder`, after checking that each has its `.source` record and that
    /// nothing else is there.
    static func names(in folder: URL) throws -> [String] {
        let all = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let files = all.filter { $0.hasSuffix(".xnnpack") }
        #expect(all == (files + files.map { $0 + ".source" }).sorted(), "each file has its record, and nothing is left over")
        return files
    }

    static func inode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int)
    }

    @Test func writesAModelsPackedWeightsOnceAndReadsThemAfterwards() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("packed", isDirectory: true)
        let model = try Fixtures.model("face_detection_short_range.tflite")
        let reference = try Self.outputs(of: model, folder: nil)

        let written = try Self.outputs(of: model, folder: cache)
        let files = try Self.names(in: cache)
        #expect(files.count == 1)
        let file = cache.appendingPathComponent(try #require(files.first))
        #expect(file.lastPathComponent.hasPrefix("face_detection_short_range-") && file.pathExtension == "xnnpack")
        let firstInode = try Self.inode(file)

        let read = try Self.outputs(of: model, folder: cache)
        #expect(try Self.names(in: cache) == files, "a second compilation writes nothing new")
        #expect(try Self.inode(file) == firstInode, "the file is read, not rewritten")
        #expect(written == reference)
        #expect(read == reference)
    }

    @Test func aReplacedModelFileGetsItsOwnPackedWeights() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("packed", isDirectory: true)
        let model = folder.appendingPathComponent("detector.tflite")
        let shortRange = try Fixtures.model("face_detection_short_range.tflite")
        let fullRange = try Fixtures.model("face_detection_full_range_sparse.tflite")

        try FileManager.default.copyItem(at: shortRange, to: model)
        #expect(try Self.outputs(of: model, folder: cache) == (try Self.outputs(of: shortRange, folder: nil)))
        let first = try Self.names(in: cache)
        #expect(first.count == 1 && first.allSatisfy { $0.hasPrefix("detector-") })
        // Another model under the same name: its weights, not the packed weights of the one it replaced,
        // whose file goes as the new one is written.
        try FileManager.default.removeItem(at: model)
        try FileManager.default.copyItem(at: fullRange, to: model)
        #expect(try Self.outputs(of: model, folder: cache) == (try Self.outputs(of: fullRange, folder: nil)))
        let second = try Self.names(in: cache)
        #expect(second.count == 1 && second.allSatisfy { $0.hasPrefix("detector-") } && second != first)
    }

    @Test func theWeightsOfADeletedModelGoWhenAnotherIsWritten() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("packed", isDirectory: true)
        let copy = folder.appendingPathComponent("copy.tflite")
        try FileManager.default.copyItem(at: try Fixtures.model("face_detection_short_range.tflite"), to: copy)
        _ = try Self.outputs(of: copy, folder: cache)
        #expect(try Self.names(in: cache).map { $0.hasPrefix("copy-") } == [true])
        try FileManager.default.removeItem(at: copy)
        // A file without its record (an older cache): removed too.
        try Data([1, 2, 3]).write(to: cache.appendingPathComponent("unknown-0.xnnpack"))

        let model = try Fixtures.model("face_detection_full_range_sparse.tflite")
        #expect(try Self.outputs(of: model, folder: cache) == (try Self.outputs(of: model, folder: nil)))
        #expect(try Self.names(in: cache).map { $0.hasPrefix("face_detection_full_range_sparse-") } == [true])
    }

    @Test func compilesWithoutAFolderItCannotWrite() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let blocker = folder.appendingPathComponent("a-file")
        try Data("not a folder".utf8).write(to: blocker)
        let cache = blocker.appendingPathComponent("packed", isDirectory: true)
        let model = try Fixtures.model("face_detection_short_range.tflite")

        #expect(try Self.outputs(of: model, folder: cache) == (try Self.outputs(of: model, folder: nil)))
        #expect(!FileManager.default.fileExists(atPath: cache.path))
    }
}

extension PackedWeightCacheTests {
    /// A packed file cut short (a full disk, a partial copy) no longer matches the size in its record: the
    /// next compilation packs the weights anew into a new file instead of handing XNNPACK the damaged one,
    /// and the outputs are those of packing without a file.
    @Test func aPackedFileCutShortIsPackedAnew() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("packed", isDirectory: true)
        let model = try Fixtures.model("face_detection_full_range_sparse.tflite")
        let reference = try Self.outputs(of: model, folder: nil)
        _ = try Self.outputs(of: model, folder: cache)
        let file = cache.appendingPathComponent(try #require(try Self.names(in: cache).first))
        let whole = try Data(contentsOf: file)
        try whole.prefix(whole.count / 2).write(to: file)
        // A second name for the damaged file: XNNPACK repairing it in place would show through it.
        let damaged = folder.appendingPathComponent("damaged")
        try #require(link(file.path, damaged.path) == 0)

        #expect(try Self.outputs(of: model, folder: cache) == reference)
        #expect(try Self.names(in: cache) == [file.lastPathComponent])
        #expect(try Data(contentsOf: damaged).count == whole.count / 2, "a new file, written and renamed into place")
        #expect(try Data(contentsOf: file) == whole)
    }
}

extension PackedWeightCacheTests {
    /// Temporary files that processes killed while writing left behind (`NAME.xnnpack.PID-RANDOM.tmp`, and
    /// Foundation's `.dat.nosync…` from the records of earlier versions) are removed once their writer has
    /// ended, or once an hour old; those a live process may still be writing stay. The folder is swept the
    /// first time a process uses it and each time a file is written.
    @Test func temporaryFilesOfEndedWritersAreRemoved() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = folder.appendingPathComponent("packed", isDirectory: true)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let endedWriter = ended.processIdentifier
        let live = getpid()
        let files: [(name: String, hoursOld: Int, stays: Bool)] = [
            ("a-0.xnnpack.\(endedWriter)-1.tmp", 0, false),
            ("a-0.xnnpack.source.\(endedWriter)-2.tmp", 0, false),
            ("b-0.xnnpack.\(live)-3.tmp", 0, true),
            ("c-0.xnnpack.\(live)-4.tmp", 2, false),
            (".dat.nosync1A2B.x8Kq3z", 2, false),
            (".dat.nosync3C4D.p0Lm2a", 0, true),
        ]
        for file in files {
            let path = cache.appendingPathComponent(file.name).path
            try Data("left over".utf8).write(to: URL(fileURLWithPath: path))
            let time = Date().addingTimeInterval(-3600 * Double(file.hoursOld))
            try FileManager.default.setAttributes([.modificationDate: time], ofItemAtPath: path)
        }
        let model = try Fixtures.model("face_detection_short_range.tflite")
        #expect(try Self.outputs(of: model, folder: cache) == (try Self.outputs(of: model, folder: nil)))
        let left = try FileManager.default.contentsOfDirectory(atPath: cache.path).filter { $0.hasSuffix(".tmp") || $0.hasPrefix(".dat") }
        #expect(left.sorted() == files.filter(\.stays).map(\.name).sorted())
    }
}
