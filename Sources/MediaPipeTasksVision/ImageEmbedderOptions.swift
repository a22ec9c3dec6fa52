import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ``ImageEmbedder``, as MediaPipe's `ImageEmbedderOptions`: a class, set on a `let`.
public final class ImageEmbedderOptions: TaskOptions, @unchecked Sendable {
    /// Scales each embedding to unit length; use it when quantizing a model whose values are not in −1…1.
    public var l2Normalize = false
    /// Returns int8 values (scalar quantization of values assumed in −1…1) instead of floats.
    public var quantize = false
    /// Receives the results of ``ImageEmbedder/embedAsync(image:timestampInMilliseconds:)``, in order, in
    /// `.liveStream` mode; held weakly.
    public weak var imageEmbedderLiveStreamDelegate: (any ImageEmbedderLiveStreamDelegate)?

    /// MediaPipe's defaults: the model zoo's embedder in image mode.
    public override init() {}

    /// Options for a custom embedder model.
    public init(localModel: LocalModel) {
        super.init()
        baseOptions.modelAssetPath = localModel.path
    }

    /// The embedding task's options for these.
    var taskOptions: EmbeddingsTask.Options {
        var options = EmbeddingsTask.Options()
        options.model = baseOptions.modelPath
        options.l2Normalize = l2Normalize
        options.quantize = quantize
        options.threads = threadCount
        return options
    }
}

/// Receives live-stream results of an ``ImageEmbedder``, as MediaPipe's `ImageEmbedderLiveStreamDelegate`.
/// Called on the embedder's own queue, one frame at a time, in timestamp order.
public protocol ImageEmbedderLiveStreamDelegate: NSObjectProtocol, Sendable {
    /// The result of the frame sent with `timestampInMilliseconds`, or the error that stopped it.
    func imageEmbedder(
        _ imageEmbedder: ImageEmbedder, didFinishEmbedding result: ImageEmbedderResult?, timestampInMilliseconds: Int,
        error: (any Error)?)
}
