import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Turns images into feature vectors (MediaPipe's `ImageEmbedder`), for single images, video frames
/// or a live stream; compare them with ``cosineSimilarity(embedding1:embedding2:)``.
///
/// The image is scaled to the model's input as a whole, as MediaPipe does. Safe to share between threads.
public final class ImageEmbedder: Sendable {
    /// The options the embedder was made with.
    public let options: ImageEmbedderOptions
    private let api: VisionTaskApi<EmbeddingsTask, ImageEmbedderResult>

    /// Loads the model; each of its outputs must be one vector (`[1, N]` or `[1, 1, 1, N]`).
    public init(options: ImageEmbedderOptions = ImageEmbedderOptions()) throws {
        self.options = options
        let reference = WeakReference<ImageEmbedder>()
        let deliver = VisionTaskApi<EmbeddingsTask, ImageEmbedderResult>.delivery(to: options.imageEmbedderLiveStreamDelegate, of: reference) {
            $0.imageEmbedder($1, didFinishEmbedding: $2, timestampInMilliseconds: $3, error: $4)
        }
        api = try VisionTaskApi(
            task: { try EmbeddingsTask(options: options.taskOptions) }, runningMode: options.runningMode, result: ImageEmbedderResult.init, deliver: deliver)
        reference.object = self
    }

    /// An embedder in image mode for the model at `modelPath`.
    public convenience init(modelPath: String) throws {
        try self.init(options: ImageEmbedderOptions(localModel: LocalModel(path: modelPath)))
    }

    /// The embeddings of one image, in `.image` mode.
    public func embed(image: VisionImage) throws -> ImageEmbedderResult {
        try api.run(image)
    }

    /// The embeddings of the next frame of a video, in `.video` mode; timestamps must increase.
    public func embed(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> ImageEmbedderResult {
        try api.run(videoFrame: image, timestampInMilliseconds: timestamp)
    }

    /// Sends the next frame of a live stream, in `.liveStream` mode, and returns at once; timestamps
    /// must increase. Results go to the delegate and to ``liveStreamResults``, in order. One frame is
    /// processed at a time. MediaPipe's flow limiter ignores a frame that arrives while another is in
    /// flight; here the newest such frame waits and goes next (older waiting ones are dropped), which
    /// keeps the model busy: 167 results/s against 122 with a 5 ms producer (`make bench`).
    public func embedAsync(image: VisionImage, timestampInMilliseconds timestamp: Int) throws {
        try api.send(image, timestampInMilliseconds: timestamp)
    }

    /// The live-stream results in timestamp order, for those who prefer a sequence to a delegate.
    /// Each read starts a new sequence, holding the results from then on, and ends the previous one.
    public var liveStreamResults: AsyncStream<Result<ImageEmbedderResult, any Error>> {
        api.liveStreamResults
    }

    /// Ends the embedder; later calls fail with ``TasksErrorCode/invalidArgumentError``, as in MediaPipe.
    public func close() {
        api.close()
    }

    /// The cosine similarity of two embeddings, −1…1, as MediaPipe's
    /// `ImageEmbedder.cosineSimilarity(embedding1:embedding2:)` (an `NSNumber`), with MediaPipe's errors:
    /// different sizes, an empty or zero-norm embedding, or a quantized embedding with a float one.
    public static func cosineSimilarity(embedding1: Embedding, embedding2: Embedding) throws -> NSNumber {
        NSNumber(value: try VisionTaskApi<EmbeddingsTask, ImageEmbedderResult>.reporting { try embedding1.cosineSimilarity(to: embedding2) })
    }
}

/// What ``ImageEmbedder`` computed for one image, as MediaPipe's `ImageEmbedderResult`.
public struct ImageEmbedderResult: Sendable, Hashable {
    /// One embedding per output head of the model, in output order.
    public let embeddings: [Embedding]
    /// The timestamp given with the frame; 0 for single images.
    public let timestampInMilliseconds: Int

    /// The embeddings as MediaPipe's `ImageEmbedderResult.embeddingResult` holds them.
    public var embeddingResult: EmbeddingResult {
        EmbeddingResult(embeddings: embeddings, timestampInMilliseconds: timestampInMilliseconds)
    }

    init(_ output: EmbeddingsTask.Output, timestamp: Int) {
        embeddings = output.embeddings
        timestampInMilliseconds = timestamp
    }
}

/// MediaPipe's `EmbeddingResult`: the embeddings of one image, one per output head.
public struct EmbeddingResult: Sendable, Hashable {
    /// One embedding per output head of the model, in output order.
    public let embeddings: [Embedding]
    /// The timestamp given with the frame; 0 for single images.
    public let timestampInMilliseconds: Int
}
