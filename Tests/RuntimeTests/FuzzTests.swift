import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// Seeded mutations of real files fed to every reader of untrusted bytes: the `.tflite` structure check,
/// LiteRT behind it, the TFLite metadata reader, image headers and decoders. A reader may refuse a mutant
/// with an error or accept it; it must never crash, hang or allocate without bound.
///
/// `make test` runs a few hundred mutants per file; `make fuzz` runs many more
/// (`SWIFTVISION_FUZZ_ITERATIONS`), from `SWIFTVISION_FUZZ_SEED`, so any failure can be run again.
@Suite(.serialized) struct FuzzTests {
    static let iterations = ProcessInfo.processInfo.environment["SWIFTVISION_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? 200
    static let seed = ProcessInfo.processInfo.environment["SWIFTVISION_FUZZ_SEED"].flatMap { UInt64($0) } ?? 20_261_124
    /// How many mutants that pass the structure check are handed to LiteRT, in a child process.
    static let loadedMutants = 40

    @Test(arguments: ["face_detection_short_range.tflite", "face_detection_full_range_sparse.tflite", "selfie_segmentation.tflite"])
    func modelStructureCheck(model: String) throws {
        let original = try Data(contentsOf: try Fixtures.model(model))
        var mutator = Mutator(seed: Self.seed ^ UInt64(model.utf8.count))
        var accepted: [Data] = []
        var refused = 0
        for _ in 0..<Self.iterations {
            let mutant = mutator.mutate(original)
            do {
                try ModelFileCheck.verify(mutant)
                if accepted.count < Self.loadedMutants { accepted.append(mutant) }
            } catch is MetadataError {
                refused += 1
            }
        }
        #expect(refused > 0 && !accepted.isEmpty, "the mutations reach both outcomes")
        // What the check lets through, LiteRT must load or refuse with an error, not crash: in a child
        // process, so that a crash fails this test instead of ending the run.
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = try accepted.enumerated().map { index, mutant in
            let file = folder.appendingPathComponent(String(format: "mutant%03d.tflite", index))
            try mutant.write(to: file)
            return file.path
        }
        let run = try Fixtures.run(Fixtures.executable, ["model", "--json"] + files)
        #expect(run.status == 0 || run.status == 1, "seed \(Self.seed): \(run.errors.suffix(2000))")
        #expect(run.output.split(separator: "\n").count == files.count)
    }

    @Test(arguments: ["face_detection_short_range.tflite", "efficientnet_lite0_classifier.tflite"])
    func metadataReader(model: String) throws {
        let original = try Self.metadataBuffer(in: try Data(contentsOf: try Fixtures.model(model)))
        _ = try ModelMetadata(flatBuffer: original)
        var mutator = Mutator(seed: Self.seed ^ 0x4D30_3031)
        var outcomes = (read: 0, refused: 0)
        for _ in 0..<Self.iterations {
            do {
                _ = try ModelMetadata(flatBuffer: mutator.mutate(original))
                outcomes.read += 1
            } catch is MetadataError {
                outcomes.refused += 1
            }
        }
        #expect(outcomes.read > 0 && outcomes.refused > 0, "the mutations reach both outcomes")
    }

    @Test func imageHeadersAndDecoders() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var seeds = try Fixtures.smallImages(in: folder)
        seeds["jpeg+exif"] = try Fixtures.jpeg(storing: try Fixtures.image("bus.jpg").resized(width: 48, height: 64), orientation: .right)
        var mutator = Mutator(seed: Self.seed ^ 0x1A6E)
        for (name, original) in seeds.sorted(by: { $0.key < $1.key }) {
            _ = try VisionImage(data: original)
            var outcomes = (decoded: 0, refused: 0)
            for _ in 0..<Self.iterations {
                let mutant = mutator.mutate(original, headerBytes: 512)
                _ = try? ImageHeader(data: mutant)
                do {
                    let image = try VisionImage(data: mutant)
                    #expect(image.width > 0 && image.height > 0 && image.width * image.height <= ImageLimits.default.maximumPixelCount)
                    outcomes.decoded += 1
                } catch is ImageError {
                    outcomes.refused += 1
                }
            }
            #expect(outcomes.decoded > 0 && outcomes.refused > 0, "\(name): the mutations reach both outcomes")
        }
    }

    /// The TFLite metadata flatbuffer stored in a model file: the byte vector whose bytes 4–7 are "M001".
    static func metadataBuffer(in model: Data) throws -> Data {
        let bytes = [UInt8](model)
        let identifier = Array("M001".utf8)
        var start = 8
        while start + 8 <= bytes.count {
            if Array(bytes[start + 4..<start + 8]) == identifier {
                let length = bytes[start - 4..<start].reversed().reduce(0) { $0 << 8 | Int($1) }
                if length > 8, start + length <= bytes.count {
                    return Data(bytes[start..<start + length])
                }
            }
            start += 4
        }
        throw MetadataError.malformed("the model carries no metadata")
    }

}

/// Mutations in the manner of coverage-less fuzzers: flipped bits, words set to edge values, cuts,
/// insertions and copied runs, all drawn from a seeded generator.
struct Mutator {
    private var generator: SeededGenerator

    init(seed: UInt64) {
        generator = SeededGenerator(seed: seed)
    }

    /// A mutant of `data`; with `headerBytes`, half of the changes fall in the first that many bytes,
    /// where a format's header and its sizes are.
    mutating func mutate(_ data: Data, headerBytes: Int? = nil) -> Data {
        var bytes = [UInt8](data)
        for _ in 0..<Int.random(in: 1...4, using: &generator) where bytes.count > 8 {
            let limit = headerBytes.map { Bool.random(using: &generator) ? min($0, bytes.count) : bytes.count } ?? bytes.count
            let position = Int.random(in: 0..<limit, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0:
                bytes[position] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
            case 1:
                let value = interestingValue(count: bytes.count)
                for index in 0..<4 where position + index < bytes.count {
                    bytes[position + index] = UInt8(truncatingIfNeeded: value >> (8 * index))
                }
            case 2:
                let value = [0, 1, 0x7F, 0xFF, 0xFFFF, Int.random(in: 0...0xFFFF, using: &generator)].randomElement(using: &generator)!
                if position + 1 < bytes.count {
                    bytes[position] = UInt8(truncatingIfNeeded: value >> 8)
                    bytes[position + 1] = UInt8(truncatingIfNeeded: value)
                }
            case 3:
                bytes.removeSubrange(Int.random(in: position..<bytes.count, using: &generator)...)
            case 4:
                let inserted = (0..<Int.random(in: 1...16, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                bytes.insert(contentsOf: inserted, at: position)
            default:
                let source = Int.random(in: 0..<bytes.count, using: &generator)
                let length = min(Int.random(in: 1...64, using: &generator), bytes.count - max(source, position))
                if length > 0 { bytes.replaceSubrange(position..<position + length, with: bytes[source..<source + length]) }
            }
        }
        return Data(bytes)
    }

    /// Values that sit on the edges of sizes and offsets.
    private mutating func interestingValue(count: Int) -> Int {
        [0, 1, 4, 0x7F, 0x80, 0xFF, 0xFFFF, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, count, count - 4, count + 4,
         Int.random(in: 0...0xFFFF_FFFF, using: &generator)].randomElement(using: &generator)!
    }
}
