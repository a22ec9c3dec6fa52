import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Classifies an image, as Vision's `ClassifyImageRequest`: every class with its confidence,
/// most confident first.
public struct ClassifyImageRequest: VisionRequest {
    /// A custom classifier; nil for the model zoo's ImageNet classifier.
    public var model: LocalModel?
    /// Called with the request's results or error each time a handler performs it (Vision's
    /// `completionHandler`); nil for none.
    public var completionHandler: CompletionHandler?
    /// What the request produces.
    public typealias Result = [ClassificationObservation]

    /// A request that runs `model`, or the model zoo's ImageNet classifier when nil.
    public init(model: LocalModel? = nil) {
        self.model = model
    }

    /// Every class of `image` with its confidence, most confident first.
    public func perform(on image: VisionImage) throws -> [ClassificationObservation] {
        var options = LabelsTask.Options()
        options.model = model?.path
        options.threshold = 0
        options.max = .max
        return try LabelsTask(options: options).output(for: image).labels.map(ClassificationObservation.init)
    }
}

/// One class of an image, as Vision's `ClassificationObservation`: a view of the shared ``ClassLabel``.
public struct ClassificationObservation: VisionObservation, Hashable {
    /// Identifies the observation (Vision's `uuid`): new for each observation made, kept by its copies.
    public let uuid: UUID
    /// The label behind the observation.
    public let label: ClassLabel

    /// The class name; empty for a model without labels.
    public var identifier: String { label.text }
    /// The model's score for the class.
    public var confidence: Float { label.confidence }
    /// The class's position in the model's output.
    public var index: Int { label.index }

    init(_ label: ClassLabel) {
        uuid = UUID()
        self.label = label
    }
}
