import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Labels what an image, or regions of it, show, with the model zoo's ImageNet classifier or any
/// `.tflite` classifier whose labels and normalisation come from its TFLite metadata.
///
/// The image (or region) becomes the model's input as in MediaPipe's ImageClassifier: stretched as a
/// whole by one bilinear warp (see `ImageVectorModel`), which on the sample photos beats the ImageNet
/// evaluation crop (bus 0.91 against 0.50).
public struct LabelsTask: VisionTask {
    /// The settings of the labeling task, named as the `label` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// Lowest confidence to report, 0–1; ML Kit's default 0.5.
        public var threshold: Float = 0.5
        /// Most labels to report per image or region, the most confident first.
        public var max = 10
        /// A custom `.tflite` classifier; nil for the model zoo's EfficientNet-Lite0 (ImageNet).
        public var model: String?
        /// When not empty, only these class names are reported.
        public var allow: [String] = []
        /// Class names never reported. Give an allowlist or a denylist, not both.
        public var deny: [String] = []
        /// Threads for each inference; nil for the default.
        public var threads: Int?
        /// General labels ("Dog", "Pet", "Vehicle") instead of ImageNet's classes, for the base model
        /// only: each one's confidence is the sum of its classes' probabilities (``GeneralLabels``).
        /// `allow` and `deny` then name general labels.
        public var general = false

        /// The default settings.
        public init() {}
    }

    /// The labels of one image.
    public struct Output: Codable, Sendable, Equatable {
        /// The labels, most confident first.
        public var labels: [ClassLabel]

        /// The labels `labels`.
        public init(labels: [ClassLabel]) {
            self.labels = labels
        }
    }

    /// The base model's file in the cache.
    package static let baseModelName = "efficientnet_lite0_classifier.tflite"

    /// Named `labels`, with the model zoo's EfficientNet-Lite0 ImageNet classifier.
    public static let descriptor = TaskDescriptor(
        name: "labels", title: "Labels", summary: "Labels of what the image shows (ImageNet, or a custom classifier)",
        models: [baseModelName], hiddenOptions: ["allow", "deny"])
    /// The default settings.
    public static var defaultOptions: Options { Options() }

    /// The settings the task was made with.
    public let options: Options
    /// The class names from the model's metadata; nil when it has none (labels then have empty text).
    public let classNames: [String]?
    private let model: ImageVectorModel
    private let filter: ClassificationFilter
    private let general: GeneralLabels?

    /// Loads the model. A model whose only output is not a `[1, N]` (or `[1, 1, 1, N]`) classification
    /// tensor is refused with ``LiteRTError/incompatibleModel(_:)``.
    public init(options: Options, store: ModelStore) throws {
        self.options = options
        let url = options.model.map { URL(fileURLWithPath: $0) } ?? SwiftVisionCache.current.model(named: Self.baseModelName)
        if let path = options.model, !FileManager.default.fileExists(atPath: path) {
            throw ModelManagerError.fileNotFound(path: path)
        }
        model = try ImageVectorModel(url: url, threadCount: options.threads, store: store)
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
        general = options.general ? try GeneralLabels.forClassifier(of: options, classCount: classCount) : nil
        filter = try ClassificationFilter(
            names: general?.names ?? names, threshold: options.threshold, maxResults: options.max, allowlist: options.allow,
            denylist: options.deny)
    }

    /// The labels of one whole image, the most confident first.
    public func output(for image: VisionImage) throws -> Output {
        Output(labels: try labels(in: image, region: nil))
    }

    /// The labels of each region (pixels of the upright image, as object detectors report boxes), in
    /// the order of `regions`: each region is cropped and classified on its own.
    public func labels(in image: VisionImage, regions: [CGRect]) throws -> [[ClassLabel]] {
        try regions.map { try labels(in: image, region: $0) }
    }

    private func labels(in image: VisionImage, region: CGRect?) throws -> [ClassLabel] {
        let scores = try model.outputs(for: image, region: region)[0]
        guard let general else { return filter.labels(scores: scores, names: classNames) }
        return filter.labels(scores: general.confidences(classProbabilities: scores), names: general.names)
    }
}
