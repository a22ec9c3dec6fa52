import Dispatch
import Foundation
import SwiftVisionRuntime
import SwiftVisionTasks

/// What base and custom labelers share, as ML Kit's `CommonImageLabelerOptions`: make an
/// `ImageLabelerOptions` (the base model) or a `CustomImageLabelerOptions` (a `.tflite` classifier).
open class CommonImageLabelerOptions: @unchecked Sendable {
    /// Lowest confidence to report, 0–1; nil for the default, 0.5.
    public var confidenceThreshold: NSNumber?
    /// The most labels to report per image, the most confident first; ML Kit's default 10 (ML Kit's
    /// `CustomImageLabelerOptions` has it, and here the base model's options too).
    public var maxResultCount = 10
    /// When not empty, only these class names are reported (MediaPipe's category allowlist).
    public var categoryAllowlist: [String] = []
    /// Class names never reported. Give an allowlist or a denylist, not both.
    public var categoryDenylist: [String] = []
    /// Threads for each inference.
    public var threadCount = LiteRT.CompilationOptions.default.threadCount
    /// Where ``ImageLabeler/process(_:completion:)`` calls its completion: the main queue, as on iOS, which
    /// a program must serve (`dispatchMain()`, `RunLoop.main.run()`); set another queue in a program
    /// without a main loop.
    public var callbackQueue: DispatchQueue = .main

    /// The model the labeler runs.
    let source: ModelSource
    /// Whether to report general labels instead of ImageNet's classes (`ImageLabelerOptions.shouldUseGeneralLabels`).
    package var usesGeneralLabels = false

    /// Options of the model from `source`, with the defaults.
    package init(source: ModelSource) {
        self.source = source
    }

    /// The labeling task's options for these, with the model file resolved (a remote model must be downloaded).
    func taskOptions() throws -> LabelsTask.Options {
        var options = LabelsTask.Options()
        options.threshold = confidenceThreshold?.floatValue ?? 0.5
        options.max = maxResultCount
        options.allow = categoryAllowlist
        options.deny = categoryDenylist
        options.threads = threadCount
        options.general = usesGeneralLabels
        if case .installed = source {} else { options.model = try source.fileURL().path }
        return options
    }
}
