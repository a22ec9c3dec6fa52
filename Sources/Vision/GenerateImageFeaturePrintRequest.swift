import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Computes an image's feature print, as Vision's `GenerateImageFeaturePrintRequest`: the model zoo
/// embedder's vector scaled to unit length. Compare prints with
/// ``FeaturePrintObservation/computeDistance(to:)``.
public struct GenerateImageFeaturePrintRequest: VisionRequest {
    /// How the image meets the model's square input.
    public var imageCropAndScaleOption: ImageCropAndScaleOption = .scaleFill
    /// Called with the request's results or error each time a handler performs it (Vision's
    /// `completionHandler`); nil for none.
    public var completionHandler: CompletionHandler?
    /// What the request produces.
    public typealias Result = FeaturePrintObservation

    /// A request that scales the image to fill the model's input (`.scaleFill`).
    public init() {}

    /// The feature print of `image`.
    public func perform(on image: VisionImage) throws -> FeaturePrintObservation {
        var options = EmbeddingsTask.Options()
        options.l2Normalize = true
        let output = try EmbeddingsTask(options: options).output(for: image, resizeMode: imageCropAndScaleOption.resizeMode)
        return FeaturePrintObservation(data: output.embeddings[0].values)
    }
}

/// An image's feature print, as Vision's `FeaturePrintObservation`: a unit-length vector.
public struct FeaturePrintObservation: VisionObservation, Hashable {
    /// Identifies the observation (Vision's `uuid`): new for each observation made, kept by its copies.
    public let uuid: UUID
    /// The vector.
    public let data: [Float]

    init(data: [Float]) {
        uuid = UUID()
        self.data = data
    }

    /// 1: a feature print has no score (Vision's value for such observations).
    public var confidence: Float { 1 }

    /// The number of values.
    public var elementCount: Int { data.count }

    /// The Euclidean distance between the two prints: 0 for the same picture, up to 2; √(2 − 2 × cosine
    /// similarity) since both have unit length. Prints of different lengths cannot be compared.
    public func computeDistance(to other: FeaturePrintObservation) throws -> Float {
        guard elementCount == other.elementCount else {
            throw EmbeddingError.embeddingSizeMismatch(elementCount, other.elementCount)
        }
        return zip(data, other.data).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }
}
