import Foundation

/// Labels what an image, or regions of it, show (ML Kit's `ImageLabeler`), with the model zoo's
/// ImageNet classifier or any `.tflite` classifier.
///
/// The image (or region) is scaled to the model's input as a whole, as MediaPipe does: on the sample
/// photos this beats the ImageNet evaluation crop (bus 0.91 against 0.50, see docs/labeling.md).
/// Safe to share between threads; inferences are served one at a time.
public final class ImageLabeler: Sendable {
    /// The base model's file in the cache.
    static let baseModelName = "efficientnet_lite0_classifier.tflite"

    public let options: ImageLabelerOptions
    /// The class names from the model's metadata; nil when it has none (labels then have empty text).
    public let classNames: [String]?
    private let model: ImageVectorModel
    private let filter: ClassificationFilter

    /// Loads the model. A model whose only output is not a `[1, N]` (or `[1, 1, 1, N]`) classification
    /// tensor is refused with ``LiteRTError/incompatibleModel(_:)``.
    public init(options: ImageLabelerOptions = ImageLabelerOptions()) throws {
        self.options = options
        let url = try options.source.fileURL()
        model = try ImageVectorModel.shared(url: url, threadCount: options.threadCount)
        let outputs = model.interpreter.outputs
        guard outputs.count == 1, let classCount = ImageVectorModel.vectorLength(of: outputs[0]), classCount >= 2 else {
            throw LiteRTError.incompatibleModel(
                "\(url.lastPathComponent) is not an image classifier: it needs one output of shape [1, N] with N ≥ 2 "
                    + "classes, it has " + outputs.map { "\($0.name) \($0.shape)" }.joined(separator: ", "))
        }
        let names = try model.interpreter.model.labels(forOutput: 0)
        if let names, names.count != classCount {
            throw LiteRTError.incompatibleModel(
                "\(url.lastPathComponent) has \(classCount) classes but \(names.count) labels in its metadata")
        }
        classNames = names
        filter = try ClassificationFilter(
            names: names, threshold: options.confidenceThreshold, maxResults: options.maxResultCount,
            allowlist: options.categoryAllowlist, denylist: options.categoryDenylist)
    }

    /// The labels of the whole image, most confident first.
    public func results(in image: VisionImage) throws -> [ImageLabel] {
        try labels(in: image, region: nil)
    }

    /// The labels of each region (pixels of the upright image, as object detectors report boxes), in
    /// the order of `regions`: each region is cropped and classified on its own.
    public func results(in image: VisionImage, regions: [CGRect]) throws -> [[ImageLabel]] {
        try regions.map { try labels(in: image, region: $0) }
    }

    /// The labels of the whole image, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> [ImageLabel] {
        try await Task.detached(priority: .userInitiated) { try self.results(in: image) }.value
    }

    /// The labels of each region, computed off the caller's task.
    public func process(_ image: VisionImage, regions: [CGRect]) async throws -> [[ImageLabel]] {
        try await Task.detached(priority: .userInitiated) { try self.results(in: image, regions: regions) }.value
    }

    private func labels(in image: VisionImage, region: CGRect?) throws -> [ImageLabel] {
        let scores = try model.outputs(for: image, region: region)[0]
        return filter.labels(scores: scores, names: classNames)
    }
}
