import Foundation

/// Why ``ImageEmbedder`` refused a call, in MediaPipe's terms.
public enum ImageEmbedderError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The call belongs to another running mode than the embedder's.
    case runningModeMismatch(required: RunningMode, current: RunningMode)
    /// A live-stream delegate was set on an embedder for images or video.
    case delegateOutsideLiveStream
    /// Video and live-stream frames must come with increasing timestamps.
    case nonIncreasingTimestamp(previous: Int, current: Int)
    /// Cosine similarity of embeddings of different lengths.
    case embeddingSizeMismatch(Int, Int)
    /// Cosine similarity of an empty embedding.
    case emptyEmbedding
    /// Cosine similarity of an embedding whose norm is 0.
    case zeroNorm
    /// Cosine similarity of a quantized embedding with a float one.
    case quantizedWithFloat

    public var description: String {
        switch self {
        case .runningModeMismatch(let required, let current):
            "the embedder is not initialized with the \(required.rawValue) mode; its running mode is \(current.rawValue)"
        case .delegateOutsideLiveStream:
            "the embedder is in image or video mode; a live-stream delegate should not be provided"
        case .nonIncreasingTimestamp(let previous, let current):
            "input timestamp must be monotonically increasing: \(current) ms follows \(previous) ms"
        case .embeddingSizeMismatch(let first, let second):
            "cannot compute cosine similarity between embeddings of different sizes (\(first) vs. \(second))"
        case .emptyEmbedding: "cannot compute cosine similarity on empty embeddings"
        case .zeroNorm: "cannot compute cosine similarity on embedding with 0 norm"
        case .quantizedWithFloat: "cannot compute cosine similarity between quantized and float embeddings"
        }
    }

    public var errorDescription: String? { description }
}
