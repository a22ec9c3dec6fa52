import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct LabelingCommandTests {
    static let executable = Fixtures.executable

    @Test func labelPrintsLabelsAndReportsBadFiles() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.jpg")
        try Data("not a photo".utf8).write(to: broken)
        let coffee = try Fixtures.sample("coffee.png").path
        let run = try Fixtures.run(Self.executable, ["labels", "--json", coffee, broken.path])
        #expect(run.status == 1)
        let lines = Fixtures.jsonLines(run.output)
        #expect(lines.count == 2)
        let labels = try #require(lines.first?["labels"] as? [[String: Any]])
        #expect(lines[0]["file"] as? String == coffee && labels.count == 1)
        #expect(labels[0]["text"] as? String == "espresso" && labels[0]["index"] as? Int == 967)
        #expect((labels[0]["confidence"] as? Double ?? 0) > 0.85)
        #expect(lines[1]["file"] as? String == broken.path && lines[1]["error"] is String)

        let cat = try Fixtures.run(Self.executable, ["labels", "--json", "--threshold", "0", "--max", "3", try Fixtures.sample("chelsea.png").path])
        let texts = (Fixtures.jsonLines(cat.output).first?["labels"] as? [[String: Any]])?.compactMap { $0["text"] as? String }
        #expect(Set(texts ?? []) == ["tiger cat", "Egyptian cat", "tabby"])
    }

    @Test func labelRunsCustomModelsAndRefusesOthers() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let red = folder.appendingPathComponent("red.png")
        try LabelingFixtures.plain([240, 10, 10]).write(to: red)
        let model = try LabelingFixtures.tinyModel("colour_classifier.tflite").path
        let run = try Fixtures.run(Self.executable, ["labels", "--json", "--model", model, red.path])
        #expect(run.status == 0, "\(run.errors)")
        let labels = Fixtures.jsonLines(run.output).first?["labels"] as? [[String: Any]]
        #expect(labels?.count == 1 && labels?.first?["index"] as? Int == 0 && labels?.first?["text"] as? String == "")
        let detector = try Fixtures.model("face_detection_short_range.tflite").path
        let refused = try Fixtures.run(Self.executable, ["labels", "--json", "--model", detector, red.path])
        #expect(refused.status == 1)
        let line = Fixtures.jsonLines(refused.output).first
        #expect(line?["file"] as? String == detector)
        #expect((line?["error"] as? String)?.contains("not an image classifier") == true)
    }

    @Test func embedAndSimilarCompareImages() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let coffee = try Fixtures.sample("coffee.png")
        let copy = folder.appendingPathComponent("copy.jpg")
        try LabelingFixtures.recompressed(try Fixtures.image("coffee.png"), scale: 0.5, quality: 60).write(to: copy)
        let embed = try Fixtures.run(Self.executable, ["embeddings", "--json", coffee.path, copy.path])
        #expect(embed.status == 0, "\(embed.errors)")
        let vectors = Fixtures.jsonLines(embed.output).compactMap { $0["embedding"] as? [Double] }
        #expect(vectors.count == 2 && vectors.allSatisfy { $0.count == 1280 })
        // --quantize: MediaPipe's scalar quantization of the unit-length embedding, round(128 × value)
        // clamped to −128…127 (its ImageEmbedderOptions documentation).
        let unit = try Fixtures.run(Self.executable, ["embeddings", "--json", "--l2-normalize", coffee.path])
        let quantized = try Fixtures.run(Self.executable, ["embeddings", "--json", "--l2-normalize", "--quantize", coffee.path])
        #expect(quantized.status == 0, "\(quantized.errors)")
        let floats = try #require(Fixtures.jsonLines(unit.output).first?["embedding"] as? [Double])
        let bytes = try #require(Fixtures.jsonLines(quantized.output).first?["quantizedEmbedding"] as? [Int])
        #expect(bytes.count == 1280 && bytes.allSatisfy { (-128...127).contains($0) })
        #expect(zip(floats, bytes).allSatisfy { abs(Double($1) - min(127, max(-128, ($0 * 128).rounded()))) <= 1 })

        let same = try Fixtures.run(Self.executable, ["similar", "--json", coffee.path, copy.path])
        let other = try Fixtures.run(Self.executable, ["similar", "--json", coffee.path, try Fixtures.sample("chelsea.png").path])
        let (a, b) = (try #require(Fixtures.jsonLines(same.output).first), try #require(Fixtures.jsonLines(other.output).first))
        #expect(a["file"] as? String == coffee.path && a["other"] as? String == copy.path)
        #expect((a["cosineSimilarity"] as? Double ?? 0) > (b["cosineSimilarity"] as? Double ?? 1))
        // A cosine is −1…1: the photo against itself scores 1 at most, however the sums round.
        let itself = try Fixtures.run(Self.executable, ["similar", "--json", coffee.path, coffee.path])
        let own = try #require(Fixtures.jsonLines(itself.output).first?["cosineSimilarity"] as? Double)
        #expect(own <= 1 && own > 1 - 1e-5, "\(own)")
        #expect((a["featurePrintDistance"] as? Double ?? 2) < (b["featurePrintDistance"] as? Double ?? 0))
        let missing = try Fixtures.run(Self.executable, ["similar", "--json", coffee.path, "/nonexistent.png"])
        #expect(missing.status == 1 && Fixtures.jsonLines(missing.output).first?["file"] as? String == "/nonexistent.png")
    }

    @Test func modelsDownloadListAndRemove() throws {
        let served = try Fixtures.model("efficientnet_lite0_classifier_fp16.tflite")
        let server = try TestModelServer(serving: served)
        let cache = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = [
            "SWIFTVISION_CACHE": cache.path, "SWIFTVISION_LITERT_LIBRARY": Fixtures.cache.runtimeLibrary.path,
        ]
        func swiftvision(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
            try Fixtures.run(Self.executable, arguments, environment: environment)
        }
        let checksum = try AssetInstaller.sha256(of: served)
        // Two processes downloading the same model at once (a slow transfer, so that they overlap): the
        // second waits for the first, both succeed, and one whole file is in place.
        let slow = server.url("/slow/model.tflite").absoluteString
        let both = try [0, 1].map { _ in
            let process = Process()
            process.executableURL = Self.executable
            process.arguments = ["models", "download", "--json", "twin", slow, "--sha256", checksum]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in both { process.waitUntilExit() }
        #expect(both.map(\.terminationStatus) == [0, 0])
        let twin = cache.appendingPathComponent("models/downloaded/twin.tflite")
        #expect(try AssetInstaller.sha256(of: twin) == checksum)
        #expect(try !FileManager.default.contentsOfDirectory(atPath: twin.deletingLastPathComponent().path).contains { $0.hasSuffix(".partial") })
        #expect(try swiftvision(["models", "remove", "twin"]).status == 0)
        let cut = try swiftvision(["models", "download", "--json", "cut", server.url("/cut/model.tflite").absoluteString])
        #expect(cut.status == 1 && (Fixtures.jsonLines(cut.output).first?["error"] as? String)?.contains("broke off") == true)
        let resumed = try swiftvision(["models", "download", "--json", "cut", server.url("/cut/model.tflite").absoluteString, "--sha256", checksum])
        #expect(resumed.status == 0, "\(resumed.errors)")
        let download = try #require(Fixtures.jsonLines(resumed.output).first)
        let path = try #require(download["file"] as? String)
        #expect(download["name"] as? String == "cut" && download["sha256"] as? String == checksum)
        #expect(try AssetInstaller.sha256(of: URL(fileURLWithPath: path)) == checksum)

        let list = try swiftvision(["models", "list", "--json"])
        let downloaded = Fixtures.jsonLines(list.output).filter { $0["source"] as? String == "downloaded" }
        #expect(downloaded.count == 1 && downloaded.first?["url"] as? String == server.url("/cut/model.tflite").absoluteString)
        let coffee = try Fixtures.sample("coffee.png").path
        let labels = try swiftvision(["labels", "--json", "--model", path, coffee])
        #expect((Fixtures.jsonLines(labels.output).first?["labels"] as? [[String: Any]])?.first?["text"] as? String == "espresso")
        // The same model by the name `models list` shows; a name of no model lists the downloaded ones.
        let byName = try swiftvision(["labels", "--json", "--model", "cut", coffee])
        #expect((Fixtures.jsonLines(byName.output).first?["labels"] as? [[String: Any]])?.first?["text"] as? String == "espresso")
        let unknown = try swiftvision(["labels", "--model", "uncut", coffee])
        #expect(unknown.status == 64 && unknown.errors.hasPrefix(
            "Error: --model uncut: no such file; give a path to a .tflite file, or one of the downloaded models: cut\n"), "\(unknown.errors)")
        // An installed model (as set-up puts it in the models folder; `models list` says "installed") stays.
        let installed = cache.appendingPathComponent("models/efficientnet_lite0_classifier.tflite")
        try FileManager.default.copyItem(at: served, to: installed)
        let sources = Fixtures.jsonLines(try swiftvision(["models", "list", "--json"]).output)
        #expect(sources.contains { $0["name"] as? String == "efficientnet_lite0_classifier" && $0["source"] as? String == "installed" })
        let kept = try swiftvision(["models", "remove", "efficientnet_lite0_classifier"])
        #expect(kept.status == 64 && kept.errors.hasPrefix(
            "Error: efficientnet_lite0_classifier is installed by `swiftvision setup`, not downloaded, and cannot be removed"), "\(kept.errors)")
        #expect(FileManager.default.fileExists(atPath: installed.path))

        #expect(try swiftvision(["models", "remove", "cut"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(try swiftvision(["models", "remove", "cut"]).status != 0)
        let bad = try swiftvision(["models", "download", "--json", "bad", server.url("/corrupt/model.tflite").absoluteString, "--sha256", checksum])
        #expect(bad.status == 1 && (Fixtures.jsonLines(bad.output).first?["error"] as? String)?.contains("SHA-256") == true)
    }
}
