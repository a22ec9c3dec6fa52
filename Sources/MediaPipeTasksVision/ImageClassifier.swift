import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ``ImageClassifier``, as MediaPipe's `ImageClassifierOptions`: a class, set on a `let`. The
/// model is the model zoo's EfficientNet-Lite0 (ImageNet) unless `baseOptions` names another classifier.
public final class ImageClassifierOptions: ClassifyingTaskOptions, @unchecked Sendable {
    /// Receives the results of ``ImageClassifier/classifyAsync(image:timestampInMilliseconds:)``, in order,
    /// in `.liveStream` mode; held weakly.
    public weak var imageClassifierLiveStreamDelegate: (any ImageClassifierLiveStreamDelegate)?

    /// MediaPipe's defaults: the model zoo's classifier in image mode, every class.
    public override init() {}

    /// The labels task's options for these.
    var taskOptions: LabelsTask.Options {
        var options = LabelsTask.Options()
        options.model = baseOptions.modelPath
        options.threshold = scoreThreshold
        options.max = maxResults < 0 ? Int.max : maxResults
        options.allow = categoryAllowlist
        options.deny = categoryDenylist
        options.threads = threadCount
        return options
    }
}

/// Receives live-stream results of an ``ImageClassifier``, as MediaPipe's `ImageClassifierLiveStreamDelegate`.
/// Called on the classifier's own queue, one frame at a time, in timestamp order.
public protocol ImageClassifierLiveStreamDelegate: NSObjectProtocol, Sendable {
    /// The result of the frame sent with `timestampInMilliseconds`, or the error that stopped it.
    func imageClassifier(
        _ imageClassifier: ImageClassifier, didFinishClassification result: ImageClassifierResult?,
        timestampInMilliseconds: Int, error: (any Error)?)
}

/// Labels what an image shows (MediaPipe's `ImageClassifier`), in single images, video frames or a live
/// stream. The image is stretched to the model's input as a whole, as MediaPipe does. Safe to share
/// between threads.
public final class ImageClassifier: Sendable {
    /// The options the classifier was made with.
    public let options: ImageClassifierOptions
    private let api: VisionTaskApi<LabelsTask, ImageClassifierResult>

    /// Loads the model: the installed classifier, or the `.tflite` at `baseOptions.modelAssetPath` (its
    /// labels from its TFLite metadata).
    public init(options: ImageClassifierOptions = ImageClassifierOptions()) throws {
        self.options = options
        let reference = WeakReference<ImageClassifier>()
        let deliver = VisionTaskApi<LabelsTask, ImageClassifierResult>.delivery(to: options.imageClassifierLiveStreamDelegate, of: reference) {
            $0.imageClassifier($1, didFinishClassification: $2, timestampInMilliseconds: $3, error: $4)
        }
        api = try VisionTaskApi(
            task: { try LabelsTask(options: options.taskOptions) }, runningMode: options.runningMode,
            result: { ImageClassifierResult(labels: $0.labels, timestamp: $1) }, deliver: deliver)
        reference.object = self
    }

    /// A classifier in image mode for the model at `modelPath`.
    public convenience init(modelPath: String) throws {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// The classes of one image, in `.image` mode.
    public func classify(image: VisionImage) throws -> ImageClassifierResult {
        try api.run(image)
    }

    /// The classes of the part of one image inside `roi` (0…1 of the upright image, origin top left),
    /// in `.image` mode.
    public func classify(image: VisionImage, regionOfInterest roi: CGRect) throws -> ImageClassifierResult {
        let (task, mode) = (api.task, options.runningMode)
        let labels = try VisionTaskApi<LabelsTask, ImageClassifierResult>.reporting {
            guard mode == .image else { throw VisionTaskError.runningModeMismatch(required: .image, current: mode) }
            let region = roi.converted(from: .normalizedTopLeft, to: .pixels, imageSize: image.size)
            return try task.labels(in: image, regions: [region])[0]
        }
        return ImageClassifierResult(labels: labels, timestamp: 0)
    }

    /// The classes of the next frame of a video, in `.video` mode; timestamps must increase.
    public func classify(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> ImageClassifierResult {
        try api.run(videoFrame: image, timestampInMilliseconds: timestamp)
    }

    /// Sends the next frame of a live stream, in `.liveStream` mode, and returns at once; timestamps must
    /// increase. Results go to the delegate, in order; one frame is processed at a time and the newest
    /// frame that arrives meanwhile goes next (older waiting ones are dropped).
    public func classifyAsync(image: VisionImage, timestampInMilliseconds timestamp: Int) throws {
        try api.send(image, timestampInMilliseconds: timestamp)
    }

    /// Ends the classifier; later calls fail with ``TasksErrorCode/invalidArgumentError``, as in MediaPipe.
    public func close() {
        api.close()
    }
}

/// What ``ImageClassifier`` found in one image, as MediaPipe's `ImageClassifierResult`.
public struct ImageClassifierResult: Sendable, Hashable {
    /// The classes of the model's one head.
    public let classificationResult: ClassificationResult
    /// The timestamp given with the frame; 0 for single images.
    public let timestampInMilliseconds: Int

    init(labels: [ClassLabel], timestamp: Int) {
        let head = Classifications(headIndex: 0, headName: nil, categories: labels.map(ResultCategory.init))
        classificationResult = ClassificationResult(classifications: [head], timestampInMilliseconds: timestamp)
        timestampInMilliseconds = timestamp
    }
}
