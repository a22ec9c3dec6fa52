import Foundation
import Testing

@testable import SwiftVisionRuntime

/// XNNPACK's packed weights kept in files between compilations: written once per model file, mapped by
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
        return try interpreter.invoke(inputs: [try RuntimeTests.input(for: photo, interpreter: interpreter)])
    }

    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    static func inode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int)
    }

    @Test func writesAModelsPackedWeightsOnceAndMapsThemAfterwards() throws {
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

        let mapped = try Self.outputs(of: model, folder: cache)
        #expect(try Self.names(in: cache) == files, "a second compilation writes nothing new")
        #expect(try Self.inode(file) == firstInode, "the file is mapped, not rewritten")
        #expect(written == reference)
        #expect(mapped == reference)
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
        // Another model under the same name: its weights, not the packed weights of the one it replaced.
        try FileManager.default.removeItem(at: model)
        try FileManager.default.copyItem(at: fullRange, to: model)
        #expect(try Self.outputs(of: model, folder: cache) == (try Self.outputs(of: fullRange, folder: nil)))
        let files = try Self.names(in: cache)
        #expect(files.count == 2 && files.allSatisfy { $0.hasPrefix("detector-") && $0.hasSuffix(".xnnpack") })
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
