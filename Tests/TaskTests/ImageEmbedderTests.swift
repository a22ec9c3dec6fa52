import Foundation
import Synchronization
import SwiftVisionTestSupport
import Testing

@testable import MediaPipeTasksVision
@testable import Vision
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct ImageEmbedderTests {
    static func embedder(
        _ mode: RunningMode = .image, normalized: Bool = false, quantized: Bool = false,
        delegate: (any ImageEmbedderLiveStreamDelegate)? = nil
    ) throws -> ImageEmbedder {
        var options = ImageEmbedderOptions()
        options.runningMode = mode
        options.l2Normalize = normalized
        options.quantize = quantized
        options.imageEmbedderLiveStreamDelegate = delegate
        return try ImageEmbedder(options: options)
    }

    static func cosine(_ embedder: ImageEmbedder, _ a: VisionImage, _ b: VisionImage) throws -> Double {
        try embedder.embed(image: a).embeddings[0].cosineSimilarity(to: embedder.embed(image: b).embeddings[0])
    }

    static let unrelated = ["coffee.png", "chelsea.png", "bus.jpg", "dog.jpg", "astronaut.png", "horses.jpg", "kite.jpg"]

    @Test func embeddingsCarryTheModelsHead() throws {
        let image = try Fixtures.image("coffee.png")
        let raw = try Self.embedder().embed(image: image)
        let embedding = try #require(raw.embeddings.first)
        #expect(raw.embeddings.count == 1 && raw.timestampInMilliseconds == 0)
        #expect(embedding.headIndex == 0 && embedding.headName == "embedding" && embedding.quantizedEmbedding == nil)
        let values = try #require(embedding.floatEmbedding)
        #expect(values.count == 1280 && values.allSatisfy { (0...6).contains($0) })
        let unit = try #require(try Self.embedder(normalized: true).embed(image: image).embeddings[0].floatEmbedding)
        let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        #expect(abs(unit.reduce(0) { $0 + $1 * $1 } - 1) < 1e-4)
        #expect(zip(unit, values).allSatisfy { abs($0 - $1 / norm) < 1e-6 })
        let quantized = try #require(try Self.embedder(normalized: true, quantized: true).embed(image: image).embeddings[0].quantizedEmbedding)
        #expect(zip(quantized, unit).allSatisfy { Float($0) == max(-128, min(127, ($1 * 128).rounded())) })
    }

    @Test(arguments: ImageOrientation.allCases)
    func everyExifOrientationEmbedsAsTheUprightPhoto(orientation: ImageOrientation) throws {
        let upright = try Fixtures.image("chelsea.png")
        let embedder = try Self.embedder()
        let plain = try VisionImage(data: try Fixtures.jpeg(storing: upright, orientation: .up))
        let stored = try VisionImage(buffer: upright.buffer, orientation: orientation.inverse).upright()
        let tagged = try VisionImage(data: try Fixtures.jpeg(storing: stored, orientation: orientation))
        #expect(tagged.orientation == orientation && tagged.size == upright.size)
        #expect(try Self.cosine(embedder, plain, tagged) >= 0.99)
    }

    @Test func aResizedRecompressedCopyBeatsEveryUnrelatedPhoto() throws {
        let embedder = try Self.embedder()
        let photos = try Self.unrelated.map(Fixtures.image)
        for (name, photo) in zip(Self.unrelated, photos) {
            let copy = try LabelingFixtures.recompressed(photo, scale: 0.45, quality: 40)
            let sameScene = try Self.cosine(embedder, photo, copy)
            let others = try zip(Self.unrelated, photos).filter { $0.0 != name }.map { try Self.cosine(embedder, copy, $0.1) }
            #expect(sameScene > others.max()! + 0.3, "\(name): copy \(sameScene), best other \(others.max()!)")
        }
    }

    /// Scalar quantization of the 1280 unit-length values costs some precision: against each photo's
    /// recompressed copy the similarities agree within 0.01; between unrelated photos within 0.01 on
    /// average and 0.015 at worst (MediaPipe 0.10.21's own quantization differs by up to 0.0115 there).
    @Test func quantizedAndFloatSimilaritiesAgree() throws {
        let float = try Self.embedder(normalized: true)
        let quantized = try Self.embedder(normalized: true, quantized: true)
        let photos = try Self.unrelated.map(Fixtures.image)
        func difference(_ a: VisionImage, _ b: VisionImage) throws -> Double {
            abs(try Self.cosine(float, a, b) - Self.cosine(quantized, a, b))
        }
        for (name, photo) in zip(Self.unrelated, photos) {
            let copy = try LabelingFixtures.recompressed(photo, scale: 0.45, quality: 40)
            #expect(try difference(photo, copy) < 0.01, "\(name)")
        }
        var differences: [Double] = []
        for a in photos.indices {
            for b in photos.indices where a < b {
                differences.append(try difference(photos[a], photos[b]))
                #expect(differences.last! < 0.015, "\(Self.unrelated[a]) vs \(Self.unrelated[b]): \(differences.last!)")
            }
        }
        #expect(differences.reduce(0, +) / Double(differences.count) < 0.01)
    }

    @Test func cosineSimilarityHasMediaPipesErrors() throws {
        let float = Embedding(floatEmbedding: [1, 2, 3])
        #expect(try float.cosineSimilarity(to: Embedding(floatEmbedding: [2, 4, 6])) > 0.99999)
        #expect(try float.cosineSimilarity(to: Embedding(floatEmbedding: [-1, -2, -3])) < -0.99999)
        #expect(throws: EmbeddingError.embeddingSizeMismatch(3, 2)) {
            try float.cosineSimilarity(to: Embedding(floatEmbedding: [1, 2]))
        }
        #expect(throws: EmbeddingError.zeroNorm) { try float.cosineSimilarity(to: Embedding(floatEmbedding: [0, 0, 0])) }
        #expect(throws: EmbeddingError.quantizedWithFloat) {
            try float.cosineSimilarity(to: Embedding(quantizedEmbedding: [1, 2, 3]))
        }
        #expect(throws: EmbeddingError.emptyEmbedding) {
            try Embedding(floatEmbedding: []).cosineSimilarity(to: Embedding(floatEmbedding: []))
        }
        let error = #expect(throws: EmbeddingError.self) { try float.cosineSimilarity(to: Embedding(floatEmbedding: [1])) }
        #expect(error?.description == "cannot compute cosine similarity between embeddings of different sizes (3 vs. 1)")
    }

    @Test func videoModeNeedsIncreasingTimestamps() throws {
        let image = try Fixtures.image("bus.jpg")
        let video = try Self.embedder(.video)
        let first = try video.embed(videoFrame: image, timestampInMilliseconds: 0)
        let second = try video.embed(videoFrame: image, timestampInMilliseconds: 33)
        #expect(second.timestampInMilliseconds == 33 && first.embeddings == second.embeddings)
        #expect(first.embeddings == (try Self.embedder().embed(image: image).embeddings))
        // MediaPipe's codes: invalid argument for a repeated timestamp (its task runner) and for a call of
        // another running mode (MPPVisionTaskRunner.mm).
        let repeated = mediaPipeFailure { _ = try video.embed(videoFrame: image, timestampInMilliseconds: 33) }
        #expect(repeated?.code == .invalidArgumentError)
        #expect(repeated?.underlying as? VisionTaskError == .nonIncreasingTimestamp(previous: 33, current: 33))
        let mismatches: [(VisionTaskError, () throws -> Void)] = [
            (.runningModeMismatch(required: .image, current: .video), { _ = try video.embed(image: image) }),
            (.runningModeMismatch(required: .video, current: .image), { _ = try Self.embedder().embed(videoFrame: image, timestampInMilliseconds: 0) }),
            (.runningModeMismatch(required: .liveStream, current: .video), { try video.embedAsync(image: image, timestampInMilliseconds: 100) }),
        ]
        for (expected, call) in mismatches {
            let failure = mediaPipeFailure(call)
            #expect(failure?.code == .invalidArgumentError && failure?.underlying as? VisionTaskError == expected)
        }
    }

    final class Collector: NSObject, ImageEmbedderLiveStreamDelegate, @unchecked Sendable {
        let timestamps = Mutex<[Int]>([])
        let errors = Mutex<[String]>([])

        func imageEmbedder(
            _ imageEmbedder: ImageEmbedder, didFinishEmbedding result: ImageEmbedderResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {
            if let result { timestamps.withLock { $0.append(result.timestampInMilliseconds) } }
            if let error { errors.withLock { $0.append("\(timestampInMilliseconds): \(error)") } }
        }
    }

    @Test func liveStreamKeepsOnlyTheNewestFrameThatComesWhileBusy() async throws {
        let collector = Collector()
        let embedder = try Self.embedder(.liveStream, delegate: collector)
        let stream = embedder.liveStreamResults
        let image = try Fixtures.image("coffee.png")
        // Sending returns at once, so the rest of a burst of 40 frames comes while the first is
        // processed: the newest (195) waits for it, the others are dropped.
        for index in 0..<40 { try embedder.embedAsync(image: image, timestampInMilliseconds: index * 5) }
        let late = mediaPipeFailure { try embedder.embedAsync(image: image, timestampInMilliseconds: 100) }
        #expect(late?.code == .invalidArgumentError)
        #expect(late?.underlying as? VisionTaskError == .nonIncreasingTimestamp(previous: 195, current: 100))
        var received: [Int] = []
        for await outcome in stream {
            received.append(try outcome.get().timestampInMilliseconds)
            if received.last == 1000 || received.count == 40 { break }
            // A frame sent once the embedder is idle again is accepted.
            if received.count == 1 {
                try await Task.sleep(for: .milliseconds(200))
                try embedder.embedAsync(image: image, timestampInMilliseconds: 1000)
            }
        }
        #expect(received == [0, 195, 1000])
        for _ in 0..<100 where collector.timestamps.withLock({ $0.count }) < received.count {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(collector.timestamps.withLock { $0 } == received && collector.errors.withLock { $0 }.isEmpty)
        let imageCall = mediaPipeFailure { _ = try embedder.embed(image: image) }
        #expect(imageCall?.code == .invalidArgumentError)
        #expect(imageCall?.underlying as? VisionTaskError == .runningModeMismatch(required: .image, current: .liveStream))
        // MediaPipe refuses a delegate outside live-stream mode with invalid argument (MPPVisionTaskRunner.mm).
        #expect(mediaPipeFailure { _ = try Self.embedder(.image, delegate: collector) }?.code == .invalidArgumentError)
    }

    @Test func customModelsAndTheirHeads() throws {
        let fp16 = try ImageEmbedder(modelPath: try Fixtures.model("efficientnet_lite0_embedder_fp16.tflite").path)
        let image = try Fixtures.image("dog.jpg")
        #expect(try fp16.embed(image: image).embeddings[0].cosineSimilarity(to: Self.embedder().embed(image: image).embeddings[0]) > 0.999)
        let twoHeads = try ImageEmbedder(options: ImageEmbedderOptions(localModel: try LabelingFixtures.tinyModel("two_head_embedder.tflite")))
        let red = try twoHeads.embed(image: try LabelingFixtures.plain([255, 0, 0])).embeddings
        #expect(red.map(\.headIndex) == [0, 1] && red.map(\.headName) == ["mean_colour", "mixed"])
        #expect(red[0].floatEmbedding == [1, -1, -1] && red[1].floatEmbedding == [1, -1, -1, -1])
        let detector = ImageEmbedderOptions(localModel: LocalModel(url: try Fixtures.model("face_detection_short_range.tflite")))
        let failure = mediaPipeFailure { _ = try ImageEmbedder(options: detector) }
        #expect(failure?.code == .invalidArgumentError)
        #expect((failure?.underlying as? LiteRTError)?.description.contains("is not an image embedder") == true)
    }

    @Test func featurePrintsMeasureDistanceAsVisionDoes() async throws {
        let coffee = try Fixtures.image("coffee.png")
        let copy = try LabelingFixtures.recompressed(coffee, scale: 0.5, quality: 50)
        func print(_ image: VisionImage) async throws -> FeaturePrintObservation {
            try await ImageRequestHandler(image).perform(GenerateImageFeaturePrintRequest())
        }
        let (a, b, cat) = (try await print(coffee), try await print(copy), try await print(try Fixtures.image("chelsea.png")))
        #expect(a.elementCount == 1280 && a.id != b.id)
        #expect(try a.computeDistance(to: a) == 0)
        #expect(try a.computeDistance(to: b) < a.computeDistance(to: cat))
        // On unit vectors the distance is √(2 − 2·cosine).
        let cosine = try Self.cosine(try Self.embedder(), coffee, try Fixtures.image("chelsea.png"))
        #expect(abs(Double(try a.computeDistance(to: cat)) - (2 - 2 * cosine).squareRoot()) < 1e-4)
        var fit = GenerateImageFeaturePrintRequest()
        fit.imageCropAndScaleOption = .scaleFit
        let letterboxed = try await ImageRequestHandler(coffee).perform(fit)
        #expect(try letterboxed.computeDistance(to: a) > 0)
    }
}
