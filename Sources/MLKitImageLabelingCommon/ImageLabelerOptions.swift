import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ``ImageLabeler``, named as ML Kit's `ImageLabelerOptions` and `CustomImageLabelerOptions`,
/// with MediaPipe's category lists.
public struct ImageLabelerOptions: Sendable, Hashable {
    /// Lowest confidence to report, 0–1; ML Kit's default 0.5.
    public var confidenceThreshold: Float = 0.5
    /// Most labels to report per image or region, the most confident first.
    public var maxResultCount = 10
    /// When not empty, only these class names are reported.
    public var categoryAllowlist: [String] = []
    /// Class names never reported. Give an allowlist or a denylist, not both.
    public var categoryDenylist: [String] = []
    /// Threads for each inference.
    public var threadCount = LiteRT.CompilationOptions.default.threadCount
    /// General labels ("Dog", "Pet", "Vehicle"), as ML Kit's base labeler gives, instead of ImageNet's
    /// fine classes ("German shepherd"); base model only. A general label's confidence is the sum of
    /// the softmax probabilities of the ImageNet classes under it in WordNet (``GeneralLabels``).
    public var shouldUseGeneralLabels = false

    let source: ModelSource

    /// The base model: the model zoo's EfficientNet-Lite0 ImageNet classifier (1000 classes).
    public init() {
        source = .installed(LabelTask.baseModelName)
    }

    /// A custom `.tflite` classifier; its labels and normalisation come from its TFLite metadata.
    public init(localModel: LocalModel) {
        source = .local(localModel)
    }

    /// A downloaded remote classifier; creating the labeler fails if it is not downloaded.
    public init(remoteModel: RemoteModel, modelManager: ModelManager = .modelManager()) {
        source = .remote(remoteModel, modelManager)
    }

    /// The labeling task's options for these, with the model file resolved (a remote model must be downloaded).
    func taskOptions() throws -> LabelTask.Options {
        var options = LabelTask.Options()
        options.threshold = confidenceThreshold
        options.max = maxResultCount
        options.allow = categoryAllowlist
        options.deny = categoryDenylist
        options.threads = threadCount
        options.general = shouldUseGeneralLabels
        if case .installed = source {} else { options.model = try source.fileURL().path }
        return options
    }
}
