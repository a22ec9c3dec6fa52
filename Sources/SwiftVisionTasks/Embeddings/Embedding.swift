import SwiftVisionCore
import SwiftVisionRuntime

/// One output head's embedding of an image, as MediaPipe's `Embedding`: float values, or int8 values
/// with ``ImageEmbedderOptions/quantize``.
public struct Embedding: Sendable, Hashable, Codable {
    /// The values, unless quantized.
    public let floatEmbedding: [Float]?
    /// The values scalar-quantized to −128…127, with ``ImageEmbedderOptions/quantize``.
    public let quantizedEmbedding: [Int8]?
    /// The output the embedding comes from.
    public let headIndex: Int
    /// The output's name from the model's metadata, else from the model.
    public let headName: String?

    /// An embedding of float values.
    public init(floatEmbedding: [Float], headIndex: Int = 0, headName: String? = nil) {
        self.floatEmbedding = floatEmbedding
        quantizedEmbedding = nil
        self.headIndex = headIndex
        self.headName = headName
    }

    /// An embedding of quantized values.
    public init(quantizedEmbedding: [Int8], headIndex: Int = 0, headName: String? = nil) {
        floatEmbedding = nil
        self.quantizedEmbedding = quantizedEmbedding
        self.headIndex = headIndex
        self.headName = headName
    }

    /// The embedding of raw model output `values`: L2-normalised and then quantized as asked, as MediaPipe's
    /// `TensorsToEmbeddingsCalculator` does (quantized value = round(value × 128) clamped to −128…127).
    package init(values: [Float], l2Normalize: Bool, quantize: Bool, headIndex: Int, headName: String?) {
        var values = values
        if l2Normalize {
            let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
            if norm > 0 { values = values.map { $0 / norm } }
        }
        if quantize {
            self.init(
                quantizedEmbedding: values.map { Int8(max(-128, min(127, ($0 * 128).rounded()))) }, headIndex: headIndex,
                headName: headName)
        } else {
            self.init(floatEmbedding: values, headIndex: headIndex, headName: headName)
        }
    }

    /// The values as floats, whichever kind they are.
    package var values: [Float] { floatEmbedding ?? quantizedEmbedding?.map(Float.init) ?? [] }

    /// The cosine similarity of this embedding and `other`, −1…1, with MediaPipe's errors: different sizes,
    /// an empty or zero-norm embedding, or a quantized embedding with a float one.
    public func cosineSimilarity(to other: Embedding) throws -> Double {
        let (u, v) = (values, other.values)
        guard u.count == v.count else { throw EmbeddingError.embeddingSizeMismatch(u.count, v.count) }
        guard (floatEmbedding == nil) == (other.floatEmbedding == nil) else {
            throw EmbeddingError.quantizedWithFloat
        }
        guard !u.isEmpty else { throw EmbeddingError.emptyEmbedding }
        var (dot, uu, vv) = (0.0, 0.0, 0.0)
        for (a, b) in zip(u, v) {
            dot += Double(a) * Double(b)
            uu += Double(a) * Double(a)
            vv += Double(b) * Double(b)
        }
        guard uu > 0, vv > 0 else { throw EmbeddingError.zeroNorm }
        // Rounding can take the quotient past ±1 (an image compared with itself).
        return min(1, max(-1, dot / (uu.squareRoot() * vv.squareRoot())))
    }
}
