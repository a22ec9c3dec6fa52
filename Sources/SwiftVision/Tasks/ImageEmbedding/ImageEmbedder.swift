import Dispatch
import Foundation
import Synchronization

/// Turns images into feature vectors (MediaPipe's `ImageEmbedder`), for single images, video frames
/// or a live stream; compare them with ``cosineSimilarity(_:_:)``.
///
/// The image is scaled to the model's input as a whole, as MediaPipe does. Safe to share between threads.
public final class ImageEmbedder: Sendable {
    /// The base model's file in the cache.
    static let baseModelName = "efficientnet_lite0_embedder.tflite"

    public let options: ImageEmbedderOptions
    private let model: ImageVectorModel
    private let headNames: [String?]
    private let stream = Mutex(StreamState())
    private let liveQueue = DispatchQueue(label: "SwiftVision.ImageEmbedder.liveStream", qos: .userInitiated)

    private struct StreamState {
        var lastTimestamp: Int?
        var isProcessing = false
        /// The newest frame that came while another was processed; it goes next unless a newer one replaces it.
        var waiting: (image: VisionImage, timestamp: Int)?
        var results: AsyncStream<Result<ImageEmbedderResult, any Error>>.Continuation?
    }

    /// Loads the model; each of its outputs must be one vector (`[1, N]` or `[1, 1, 1, N]`).
    public init(options: ImageEmbedderOptions = ImageEmbedderOptions()) throws {
        if options.runningMode != .liveStream, options.imageEmbedderLiveStreamDelegate != nil {
            throw ImageEmbedderError.delegateOutsideLiveStream
        }
        self.options = options
        let url = try options.source.fileURL()
        model = try ImageVectorModel.shared(url: url, threadCount: options.threadCount)
        let outputs = model.interpreter.outputs
        guard !outputs.isEmpty, outputs.allSatisfy({ ImageVectorModel.vectorLength(of: $0) != nil }) else {
            throw LiteRTError.incompatibleModel(
                "\(url.lastPathComponent) is not an image embedder: each output must be one vector [1, N], it has "
                    + outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))
        }
        let metadata = model.interpreter.model.metadata?.outputs ?? []
        headNames = outputs.indices.map { index in
            (index < metadata.count ? metadata[index].name : nil) ?? outputs[index].name
        }
    }

    /// An embedder in image mode for the model at `modelPath`.
    public convenience init(modelPath: String) throws {
        try self.init(options: ImageEmbedderOptions(localModel: LocalModel(path: modelPath)))
    }

    deinit {
        stream.withLock { $0.results?.finish() }
    }

    /// The embeddings of one image, in `.image` mode.
    public func embed(image: VisionImage) throws -> ImageEmbedderResult {
        try requireMode(.image)
        return try embeddings(of: image, timestamp: 0)
    }

    /// The embeddings of the next frame of a video, in `.video` mode; timestamps must increase.
    public func embed(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> ImageEmbedderResult {
        try requireMode(.video)
        try stream.withLock { try Self.advance(&$0, to: timestamp) }
        return try embeddings(of: image, timestamp: timestamp)
    }

    /// Sends the next frame of a live stream, in `.liveStream` mode, and returns at once; timestamps
    /// must increase. Results go to the delegate and to ``liveStreamResults``, in order. As in
    /// MediaPipe's flow limiting, one frame is processed at a time and the newest frame that comes
    /// meanwhile waits for it; older waiting frames are dropped, so there may be no result for them.
    public func embedAsync(image: VisionImage, timestampInMilliseconds timestamp: Int) throws {
        try requireMode(.liveStream)
        let starts = try stream.withLock { state in
            try Self.advance(&state, to: timestamp)
            guard !state.isProcessing else {
                state.waiting = (image, timestamp)
                return false
            }
            state.isProcessing = true
            return true
        }
        if starts { liveQueue.async { [self] in processLiveFrames(first: (image, timestamp)) } }
    }

    /// Embeds `first`, then each frame left waiting, until none is.
    private func processLiveFrames(first: (image: VisionImage, timestamp: Int)) {
        var next: (image: VisionImage, timestamp: Int)? = first
        while let (image, timestamp) = next {
            let outcome = Result { try embeddings(of: image, timestamp: timestamp) }
            options.imageEmbedderLiveStreamDelegate?.imageEmbedder(
                self, didFinishEmbedding: try? outcome.get(), timestampInMilliseconds: timestamp,
                error: outcome.failure)
            next = stream.withLock { state in
                state.results?.yield(outcome)
                let waiting = state.waiting.take()
                state.isProcessing = waiting != nil
                return waiting
            }
        }
    }

    /// The live-stream results in timestamp order, for those who prefer a sequence to a delegate.
    /// Each read starts a new sequence, holding the results from then on, and ends the previous one.
    public var liveStreamResults: AsyncStream<Result<ImageEmbedderResult, any Error>> {
        let (results, continuation) = AsyncStream<Result<ImageEmbedderResult, any Error>>.makeStream()
        stream.withLock { state in
            state.results?.finish()
            state.results = continuation
        }
        return results
    }

    /// The cosine similarity of two embeddings, −1…1, with MediaPipe's errors: different sizes, an
    /// empty or zero-norm embedding, or a quantized embedding with a float one.
    public static func cosineSimilarity(_ first: Embedding, _ second: Embedding) throws -> Double {
        let (u, v) = (first.values, second.values)
        guard u.count == v.count else { throw ImageEmbedderError.embeddingSizeMismatch(u.count, v.count) }
        guard (first.floatEmbedding == nil) == (second.floatEmbedding == nil) else {
            throw ImageEmbedderError.quantizedWithFloat
        }
        guard !u.isEmpty else { throw ImageEmbedderError.emptyEmbedding }
        var (dot, uu, vv) = (0.0, 0.0, 0.0)
        for (a, b) in zip(u, v) {
            dot += Double(a) * Double(b)
            uu += Double(a) * Double(a)
            vv += Double(b) * Double(b)
        }
        guard uu > 0, vv > 0 else { throw ImageEmbedderError.zeroNorm }
        return dot / (uu.squareRoot() * vv.squareRoot())
    }

    private func requireMode(_ mode: RunningMode) throws {
        guard options.runningMode == mode else {
            throw ImageEmbedderError.runningModeMismatch(required: mode, current: options.runningMode)
        }
    }

    private static func advance(_ state: inout StreamState, to timestamp: Int) throws {
        if let previous = state.lastTimestamp, timestamp <= previous {
            throw ImageEmbedderError.nonIncreasingTimestamp(previous: previous, current: timestamp)
        }
        state.lastTimestamp = timestamp
    }

    private func embeddings(of image: VisionImage, timestamp: Int) throws -> ImageEmbedderResult {
        let outputs = try model.outputs(for: image)
        let embeddings = outputs.enumerated().map { index, values in
            Embedding(
                values: values, l2Normalize: options.l2Normalize, quantize: options.quantize, headIndex: index,
                headName: headNames[index])
        }
        return ImageEmbedderResult(embeddings: embeddings, timestampInMilliseconds: timestamp)
    }
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
