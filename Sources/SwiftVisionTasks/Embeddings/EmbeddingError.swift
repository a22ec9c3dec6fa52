import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Why two embeddings cannot be compared, in MediaPipe's terms.
public enum EmbeddingError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Cosine similarity of embeddings of different lengths.
    case embeddingSizeMismatch(Int, Int)
    /// Cosine similarity of an empty embedding.
    case emptyEmbedding
    /// Cosine similarity of an embedding whose norm is 0.
    case zeroNorm
    /// Cosine similarity of a quantized embedding with a float one.
    case quantizedWithFloat

    /// A one-line explanation of the refusal.
    public var description: String {
        switch self {
        case .embeddingSizeMismatch(let first, let second):
            "cannot compute cosine similarity between embeddings of different sizes (\(first) vs. \(second))"
        case .emptyEmbedding: "cannot compute cosine similarity on empty embeddings"
        case .zeroNorm: "cannot compute cosine similarity on embedding with 0 norm"
        case .quantizedWithFloat: "cannot compute cosine similarity between quantized and float embeddings"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
