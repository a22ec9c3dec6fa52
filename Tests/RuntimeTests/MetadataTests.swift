import Foundation
import SwiftVisionTestSupport
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
        var generator = SeededGenerator(seed: 1001)
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

/// Files made to take gigabytes from a few kilobytes or one megabyte are refused before they do.
@Suite struct MetadataAmplificationTests {
    /// A model with `labels.txt` packed as 100 MiB of zeros deflated to about 100 kB; with `claimedSize`, the
    /// archive's headers claim that many bytes instead (the deflated stream still holds 100 MiB).
    static func zipBomb(claimedSize: Int? = nil, in folder: URL) throws -> URL {
        let bomb = folder.appendingPathComponent("bomb.tflite")
        let script = """
            import shutil, struct, sys, zipfile
            shutil.copy(sys.argv[1], sys.argv[2])
            with zipfile.ZipFile(sys.argv[2], "a", compression=zipfile.ZIP_DEFLATED) as archive:
                archive.writestr("labels.txt", bytes(100 << 20))
            if len(sys.argv) > 3:
                data = bytearray(open(sys.argv[2], "rb").read())
                claimed = int(sys.argv[3])
                local = data.rindex(b"PK\\x03\\x04")
                central = data.rindex(b"PK\\x01\\x02")
                struct.pack_into("<I", data, local + 22, claimed)
                struct.pack_into("<I", data, central + 24, claimed)
                open(sys.argv[2], "wb").write(data)
            """
        let arguments = ["-c", script, try Fixtures.model("face_detection_short_range.tflite").path, bomb.path]
            + (claimedSize.map { [String($0)] } ?? [])
        let run = try Fixtures.run(Fixtures.cache.root.appendingPathComponent("venv/bin/python"), arguments)
        try #require(run.status == 0, "\(run.errors)")
        return bomb
    }

    @Test(arguments: [nil, 100])
    func aPackedFileThatUnpacksToMoreThanTheLimitIsRefused(claimedSize: Int?) throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = try LiteRT.Model(contentsOf: try Self.zipBomb(claimedSize: claimedSize, in: folder))
        #expect(try model.packedFileNames() == ["labels.txt"])
        #expect(throws: MetadataError.packedFileTooLarge(name: "labels.txt", model: "bomb.tflite", limit: LiteRT.Model.maximumPackedFileSize)) {
            try model.packedFile(named: "labels.txt")
        }
    }

    /// TFLite metadata whose `files` associated files all point at one table named by one 1 MiB string:
    /// with 2000 of them, read naively, 2 GB of names.
    static func repeatingMetadata(files count: Int) -> Data {
        var bytes = [UInt8]()
        func append(_ value: Int, size: Int) {
            for index in 0..<size { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
        }
        func patch(_ value: Int, at position: Int) {
            for index in 0..<4 { bytes[position + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
        }
        append(0, size: 4)  // the root offset, patched below
        bytes += Array("M001".utf8)
        let rootVTable = bytes.count  // field 6, associated_files, at offset 4 of an 8-byte table
        for value in [18, 8, 0, 0, 0, 0, 0, 0, 4] { append(value, size: 2) }
        bytes += [0, 0]
        let fileVTable = bytes.count  // field 0, name, at offset 4 of an 8-byte table
        for value in [6, 8, 4] { append(value, size: 2) }
        bytes += [0, 0]
        let root = bytes.count
        patch(root, at: 0)
        append(root - rootVTable, size: 4)
        let filesField = bytes.count
        append(0, size: 4)
        let vector = bytes.count
        patch(vector - filesField, at: filesField)
        append(count, size: 4)
        let file = vector + 4 + 4 * count
        for index in 0..<count { append(file - (vector + 4 + 4 * index), size: 4) }
        append(file - fileVTable, size: 4)
        append(4, size: 4)  // the name follows right after this offset
        let length = 1 << 20
        append(length, size: 4)
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: length)
        bytes.append(0)
        return Data(bytes)
    }

    @Test func metadataWhoseOffsetsRepeatOneLongStringIsRefused() throws {
        let metadata = Self.repeatingMetadata(files: 2000)
        #expect(metadata.count < (1 << 20) + 10_000)
        #expect(throws: MetadataError.self) { try ModelMetadata(flatBuffer: metadata) }
    }

    @Test func theSameLayoutWithOneFileIsRead() throws {
        // The builder makes valid metadata: with one file, the long name is read once and accepted.
        let read = try ModelMetadata(flatBuffer: Self.repeatingMetadata(files: 1))
        #expect(read.associatedFiles.count == 1)
        #expect(read.associatedFiles.first?.name == String(repeating: "a", count: 1 << 20))
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
