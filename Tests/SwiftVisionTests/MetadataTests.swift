import Foundation
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct MetadataTests {
    @Test func readsMediaPipeModelMetadata() throws {
        let model = try LiteRT.Model(contentsOf: try Fixtures.model("face_detection_short_range.tflite"))
        let metadata = try #require(model.metadata)
        #expect(metadata.name == "Short Range Face Detection")
        #expect(metadata.inputs.count == 1)
        #expect(metadata.inputs[0].normalization == Normalization(mean: [127.5], std: [127.5]))
        #expect(metadata.inputs[0].imageProperties?.colorSpace == .rgb)
        #expect(try model.labels() == nil)
    }

    @Test func loadsModelsWithoutMetadata() throws {
        let model = try LiteRT.Model(contentsOf: try Fixtures.model("iris_landmark.tflite"))
        #expect(model.metadata == nil)
        #expect(model.inputs[0].shape == [1, 64, 64, 3])
        #expect(throws: MetadataError.self) { try model.packedFileNames() }
    }

    @Test func readsFilesPackedTheWayTheMetadataWriterPacksThem() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let packed = folder.appendingPathComponent("packed.tflite")
        // Python's zipfile in append mode is what TFLite's MetadataPopulator uses to pack files.
        let script = """
            import shutil, sys, zipfile
            shutil.copy(sys.argv[1], sys.argv[2])
            with zipfile.ZipFile(sys.argv[2], "a") as archive:
                archive.writestr("labels.txt", "face\\nbackground\\n")
                archive.writestr("notes/readme.txt", "packed by the test")
            """
        let run = try Fixtures.run(
            Fixtures.cache.root.appendingPathComponent("venv/bin/python"),
            ["-c", script, try Fixtures.model("face_detection_short_range.tflite").path, packed.path])
        try #require(run.status == 0, "\(run.errors)")

        let model = try LiteRT.Model(contentsOf: packed)
        #expect(model.metadata?.name == "Short Range Face Detection")
        #expect(Set(try model.packedFileNames()) == ["labels.txt", "notes/readme.txt"])
        #expect(try model.packedFile(named: "labels.txt") == Data("face\nbackground\n".utf8))
        #expect(throws: MetadataError.packedFileNotFound(name: "other.txt", model: "packed.tflite")) {
            try model.packedFile(named: "other.txt")
        }
        // The packed model still runs.
        let interpreter = try Interpreter(model: model)
        #expect(try interpreter.invoke(inputs: [Data(count: interpreter.inputs[0].byteCount)]).count == 2)
    }

    @Test func malformedMetadataThrowsInsteadOfCrashing() {
        var generator = SystemRandomNumberGenerator()
        #expect(throws: MetadataError.self) { try ModelMetadata(flatBuffer: Data("nothing".utf8)) }
        for length in [8, 12, 16, 64, 512] {
            for _ in 0..<50 {
                var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                bytes.replaceSubrange(4..<8, with: Array("M001".utf8))
                _ = try? ModelMetadata(flatBuffer: Data(bytes))
            }
        }
    }
}

@Suite struct ModelZooMetadataTests {
    @Test func readsLabelsAndNormalisationOfTheBuiltClassifier() throws {
        let model = try LiteRT.Model(contentsOf: try Fixtures.model("efficientnet_lite0_classifier.tflite"))
        let metadata = try #require(model.metadata)
        #expect(metadata.inputs.first?.normalization != nil)
        let labels = try #require(try model.labels())
        #expect(labels.count == 1000)
        #expect(labels.contains("espresso") && labels.contains("tabby"))
        #expect(model.outputs[0].shape == [1, 1000])
    }

    @Test func readsTheDetectorsValueLabels() throws {
        let model = try LiteRT.Model(contentsOf: try Fixtures.model("yolov3_tiny_coco.tflite"))
        let names = try model.packedFileNames()
        #expect(names.contains("yolo_decoding.json"))
        let labels = try #require(try model.labels())
        #expect(labels.count == 80 && labels.first == "person")
    }
}
