import Foundation
import MLKitVision
import SwiftVisionTasks

/// Labels what an image, or regions of it, show, as ML Kit's `ImageLabeler`: with the model zoo's
/// ImageNet classifier (``ImageLabelerOptions``) or any `.tflite` classifier
/// (``CustomImageLabelerOptions``). Safe to share between threads.
public final class ImageLabeler: Sendable {
    private let detector: Detector<LabelsTask>

    private init(options: CommonImageLabelerOptions) {
        detector = Detector(stream: false, callbackQueue: options.callbackQueue) {
            try LabelsTask(options: try options.taskOptions())
        }
    }

    /// A labeler with `options`, as ML Kit's `ImageLabeler.imageLabeler(options:)`. It does not fail: a
    /// model that cannot be loaded is reported by each call, as an error in ``mlKitErrorDomain``.
    public static func imageLabeler(options: CommonImageLabelerOptions) -> ImageLabeler {
        ImageLabeler(options: options)
    }

    /// The base labeler with ML Kit's default options, as ML Kit's `ImageLabeler.imageLabeler()`.
    public static func imageLabeler() -> ImageLabeler {
        ImageLabeler(options: CommonImageLabelerOptions(source: .installed(LabelsTask.baseModelName)))
    }

    /// The class names from the model's metadata; nil when it has none (labels then have empty text) or
    /// the model did not load.
    public var classNames: [String]? { try? detector.task().classNames }

    /// The labels of the whole image, most confident first, as ML Kit's `results(in:)`.
    public func results(in image: VisionImage) throws -> [ImageLabel] {
        try detector.output(for: image).labels
    }

    /// The labels of the whole image, handed to `completion` on the options' callback queue (the main
    /// queue unless set otherwise), as ML Kit's `process(_:completion:)`.
    public func process(_ image: VisionImage, completion: @escaping @Sendable ([ImageLabel]?, (any Error)?) -> Void) {
        detector.process(image, results: { $0.labels }, completion: completion)
    }

    /// The labels of the whole image, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> [ImageLabel] {
        try await detector.output(processing: image).labels
    }

    /// The labels of each region (pixels of the upright image, as object detectors report boxes), in
    /// the order of `regions`: each region is cropped and classified on its own.
    public func results(in image: VisionImage, regions: [CGRect]) throws -> [[ImageLabel]] {
        let frame = image.taskImage
        return try detector.reportingErrors { try $0.task.labels(in: frame, regions: regions) }
    }

    /// The labels of each region, computed off the caller's task.
    public func process(_ image: VisionImage, regions: [CGRect]) async throws -> [[ImageLabel]] {
        let frame = image.taskImage
        return try await detector.offloading { try $0.task.labels(in: frame, regions: regions) }
    }

    /// Ends the labeler; later calls fail with ``MLKitErrorCode/failedPrecondition``.
    public func close() {
        detector.close()
    }
}
