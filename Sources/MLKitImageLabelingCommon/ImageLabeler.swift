import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Labels what an image, or regions of it, show (ML Kit's `ImageLabeler`), with the model zoo's
/// ImageNet classifier or any `.tflite` classifier. Safe to share between threads.
public final class ImageLabeler: Sendable {
    /// The options the labeler was made with.
    public let options: ImageLabelerOptions
    private let runner: TaskRunner<LabelTask>

    /// Loads the model. A model whose only output is not a `[1, N]` (or `[1, 1, 1, N]`) classification
    /// tensor is refused with ``LiteRTError/incompatibleModel(_:)``.
    public init(options: ImageLabelerOptions = ImageLabelerOptions()) throws {
        self.options = options
        runner = TaskRunner(task: try LabelTask(options: try options.taskOptions()))
    }

    /// A labeler with `options`, as ML Kit's `ImageLabeler.imageLabeler(options:)`.
    public static func imageLabeler(options: ImageLabelerOptions = ImageLabelerOptions()) throws -> ImageLabeler {
        try ImageLabeler(options: options)
    }

    /// The class names from the model's metadata; nil when it has none (labels then have empty text).
    public var classNames: [String]? { runner.task.classNames }

    /// The labels of the whole image, most confident first.
    public func results(in image: VisionImage) throws -> [ImageLabel] {
        try runner.run(image).labels
    }

    /// The labels of each region (pixels of the upright image, as object detectors report boxes), in
    /// the order of `regions`: each region is cropped and classified on its own.
    public func results(in image: VisionImage, regions: [CGRect]) throws -> [[ImageLabel]] {
        try runner.task.labels(in: image, regions: regions)
    }

    /// The labels of the whole image, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> [ImageLabel] {
        try await runner.process(image).labels
    }

    /// The labels of each region, computed off the caller's task.
    public func process(_ image: VisionImage, regions: [CGRect]) async throws -> [[ImageLabel]] {
        try await runner.offload { try $0.task.labels(in: image, regions: regions) }
    }

    /// The labels of the whole image, delivered to `completion` (ML Kit's callback style).
    public func process(_ image: VisionImage, completion: @escaping @Sendable ([ImageLabel]?, (any Error)?) -> Void) {
        complete(completion) { try await self.process(image) }
    }

    /// Ends the labeler; later calls fail with ``VisionTaskError/closed``.
    public func close() {
        runner.close()
    }
}
