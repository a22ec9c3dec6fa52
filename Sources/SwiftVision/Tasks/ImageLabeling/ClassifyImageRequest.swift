import Foundation

/// Classifies an image, as Vision's `ClassifyImageRequest`: every class with its confidence,
/// most confident first.
public struct ClassifyImageRequest: VisionRequest {
    /// A custom classifier; nil for the model zoo's ImageNet classifier.
    public var model: LocalModel?

    public init(model: LocalModel? = nil) {
        self.model = model
    }

    public func perform(on image: VisionImage) throws -> [ClassificationObservation] {
        var options = model.map(ImageLabelerOptions.init(localModel:)) ?? ImageLabelerOptions()
        options.confidenceThreshold = 0
        options.maxResultCount = .max
        return try ImageLabeler(options: options).results(in: image).map(ClassificationObservation.init)
    }
}

/// One class of an image, as Vision's `ClassificationObservation`.
public struct ClassificationObservation: Sendable, Hashable {
    /// The class name; empty for a model without labels.
    public let identifier: String
    public let confidence: Float
    /// The class's position in the model's output.
    public let index: Int

    init(_ label: ImageLabel) {
        identifier = label.text
        confidence = label.confidence
        index = label.index
    }
}
