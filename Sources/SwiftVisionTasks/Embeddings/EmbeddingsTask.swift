import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Turns an image into feature vectors, one per output head of the model: the model zoo's
/// EfficientNet-Lite0 embedder (1280 values) or any `.tflite` whose outputs are vectors. The image
/// becomes the model's input as in MediaPipe's ImageEmbedder: stretched as a whole by one bilinear
/// warp (see `ImageVectorModel`).
public struct EmbeddingsTask: VisionTask {
    /// The settings of the embedding task, named as the `embed` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// A custom `.tflite` embedder; nil for the model zoo's.
        public var model: String?
        /// Scale each embedding to unit length.
        public var l2Normalize = false
        /// Return int8 values (scalar quantization of values assumed in −1…1) instead of floats.
        public var quantize = false
        /// Threads for each inference; nil for the default.
        public var threads: Int?

        /// The default settings.
        public init() {}
    }

    /// The embeddings of one image.
    public struct Output: Codable, Sendable, Hashable {
        /// One embedding per output head, in output order.
        public var embeddings: [Embedding]

        enum CodingKeys: String, CodingKey { case embedding, quantizedEmbedding, heads }

        /// The embeddings `embeddings`.
        public init(embeddings: [Embedding]) {
            self.embeddings = embeddings
        }

        /// Decodes `{"embedding"}` or `{"quantizedEmbedding"}` (the first head), with `"heads"` for several.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let heads = try container.decodeIfPresent([Embedding].self, forKey: .heads) {
                embeddings = heads
            } else if let values = try container.decodeIfPresent([Int8].self, forKey: .quantizedEmbedding) {
                embeddings = [Embedding(quantizedEmbedding: values)]
            } else {
                embeddings = [Embedding(floatEmbedding: try container.decode([Float].self, forKey: .embedding))]
            }
        }

        /// Encodes the first head's values as `"embedding"` (or `"quantizedEmbedding"`), and every head
        /// as `"heads"` when the model has several.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if let first = embeddings.first {
                if let values = first.quantizedEmbedding {
                    try container.encode(values, forKey: .quantizedEmbedding)
                } else {
                    try container.encode(first.floatEmbedding ?? [], forKey: .embedding)
                }
            }
            if embeddings.count > 1 { try container.encode(embeddings, forKey: .heads) }
        }
    }

    /// The base model's file in the cache.
    package static let baseModelName = "efficientnet_lite0_embedder.tflite"

    /// Named `embeddings`, with the model zoo's EfficientNet-Lite0 embedder.
    public static let descriptor = TaskDescriptor(
        name: "embeddings", title: "Embeddings", summary: "Feature vectors for image similarity", models: [baseModelName])
    /// The default settings.
    public static var defaultOptions: Options { Options() }

    /// The settings the task was made with.
    public let options: Options
    private let model: ImageVectorModel
    private let headNames: [String?]

    /// Loads the model; each of its outputs must be one vector (`[1, N]` or `[1, 1, 1, N]`).
    public init(options: Options, store: ModelStore) throws {
        self.options = options
        let url = options.model.map { URL(fileURLWithPath: $0) } ?? SwiftVisionCache.current.model(named: Self.baseModelName)
        if let path = options.model, !FileManager.default.fileExists(atPath: path) {
            throw ModelManagerError.fileNotFound(path: path)
        }
        model = try ImageVectorModel(url: url, threadCount: options.threads, store: store)
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

    /// The embeddings of one image, stretched to the model's input as a whole.
    public func output(for image: VisionImage) throws -> Output {
        try output(for: image, resizeMode: .stretch)
    }

    /// The embeddings of `image` scaled to the model's input by `resizeMode`.
    package func output(for image: VisionImage, resizeMode: ImageTensorFormat.ResizeMode) throws -> Output {
        let outputs = try model.outputs(for: image, resizeMode: resizeMode)
        return Output(embeddings: outputs.enumerated().map { index, values in
            Embedding(
                values: values, l2Normalize: options.l2Normalize, quantize: options.quantize, headIndex: index,
                headName: headNames[index])
        })
    }
}
