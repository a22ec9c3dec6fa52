import Foundation
import MediaPipeTasksVision
import Synchronization
import Testing

/// MediaPipe code in the shape of Google's iOS guide for the image embedder, with only the image lines
/// changed (`MPImage(contentsOf:)` for `MPImage(uiImage:)`). Truth: MediaPipe's documented defaults, the
/// definitions of `l2Normalize`, `quantize` and cosine similarity, and the embedder's 1280-value output.
@Suite(.serialized) struct MediaPipePortTests {
    /// Records what the live stream delivers, as an app's view controller would.
    final class StreamRecorder: NSObject, ImageEmbedderLiveStreamDelegate, @unchecked Sendable {
        let timestamps = Mutex<[Int]>([])
        let sizes = Mutex<[Int]>([])

        func imageEmbedder(
            _ imageEmbedder: ImageEmbedder, didFinishEmbedding result: ImageEmbedderResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {
            timestamps.withLock { $0.append(timestampInMilliseconds) }
            sizes.withLock { $0.append(result?.embeddingResult.embeddings.first?.floatEmbedding?.count ?? -1) }
        }
    }

    static let modelPath = PortFixtures.model("efficientnet_lite0_embedder.tflite").path

    @Test func optionsHaveMediaPipesDefaults() {
        let options = ImageEmbedderOptions()
        #expect(options.runningMode == .image && !options.l2Normalize && !options.quantize)
        #expect(options.imageEmbedderLiveStreamDelegate == nil)
    }

    @Test func embedsImagesAndComparesThem() throws {
        let options = ImageEmbedderOptions()
        options.baseOptions.modelAssetPath = Self.modelPath
        options.l2Normalize = true
        let imageEmbedder = try ImageEmbedder(options: options)
        let coffee = try MPImage(contentsOf: PortFixtures.sample("coffee.png"))
        let cat = try MPImage(contentsOf: PortFixtures.sample("chelsea.png"))

        let first = try imageEmbedder.embed(image: coffee).embeddingResult.embeddings[0]
        let second = try imageEmbedder.embed(image: cat).embeddingResult.embeddings[0]
        let values = try #require(first.floatEmbedding)
        #expect(values.count == 1280)
        #expect(abs(values.reduce(0) { $0 + $1 * $1 } - 1) < 1e-4)
        let same = try ImageEmbedder.cosineSimilarity(embedding1: first, embedding2: first)
        let other = try ImageEmbedder.cosineSimilarity(embedding1: first, embedding2: second)
        #expect(abs(same.doubleValue - 1) < 1e-6 && other.doubleValue < 0.9)

        options.quantize = true
        let quantized = try ImageEmbedder(options: options).embed(image: coffee).embeddingResult.embeddings[0]
        #expect(quantized.floatEmbedding == nil && quantized.quantizedEmbedding?.count == 1280)
    }

    @Test func embedsVideoFramesAndALiveStream() async throws {
        let coffee = try MPImage(contentsOf: PortFixtures.sample("coffee.png"))
        let single = try ImageEmbedder(modelPath: Self.modelPath).embed(image: coffee).embeddingResult.embeddings[0]

        let video = ImageEmbedderOptions()
        video.baseOptions.modelAssetPath = Self.modelPath
        video.runningMode = .video
        let videoEmbedder = try ImageEmbedder(options: video)
        for timestamp in [0, 33, 66] {
            let result = try videoEmbedder.embed(videoFrame: coffee, timestampInMilliseconds: timestamp)
            #expect(result.embeddingResult.embeddings[0] == single)
        }

        let recorder = StreamRecorder()
        let live = ImageEmbedderOptions()
        live.baseOptions.modelAssetPath = Self.modelPath
        live.runningMode = .liveStream
        live.imageEmbedderLiveStreamDelegate = recorder
        let liveEmbedder = try ImageEmbedder(options: live)
        try liveEmbedder.embedAsync(image: coffee, timestampInMilliseconds: 0)
        for _ in 0..<200 where recorder.timestamps.withLock({ $0.isEmpty }) {
            try await Task.sleep(for: .milliseconds(25))
        }
        #expect(recorder.timestamps.withLock { $0 } == [0] && recorder.sizes.withLock { $0 } == [1280])
    }

    @Test func badInputGetsErrorsNotCrashes() throws {
        #expect(throws: (any Error).self) { try MPImage(contentsOf: URL(fileURLWithPath: "/nonexistent.png")) }
        #expect(throws: (any Error).self) { try ImageEmbedder(modelPath: "/nonexistent/model.tflite") }
        let image = try MPImage(contentsOf: PortFixtures.sample("coffee.png"))
        let imageMode = try ImageEmbedder(modelPath: Self.modelPath)
        #expect(throws: (any Error).self) { try imageMode.embed(videoFrame: image, timestampInMilliseconds: 0) }
        #expect(throws: (any Error).self) {
            try ImageEmbedder.cosineSimilarity(
                embedding1: Embedding(floatEmbedding: [1, 2, 3]), embedding2: Embedding(floatEmbedding: [1, 2]))
        }
    }
}
