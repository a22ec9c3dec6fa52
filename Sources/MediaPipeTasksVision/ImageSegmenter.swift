import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ``ImageSegmenter``, as MediaPipe's `ImageSegmenterOptions`: a class, set on a `let`. The model
/// is MediaPipe's selfie segmentation model (the installed `selfie_segmentation.tflite`) unless `baseOptions`
/// names another one-category model with one float RGB input and one mask output (such as
/// `selfie_segmentation_landscape.tflite`).
public final class ImageSegmenterOptions: TaskOptions, @unchecked Sendable {
    /// Whether the result has a confidence mask per category.
    public var shouldOutputConfidenceMasks = true
    /// Whether the result has the category mask.
    public var shouldOutputCategoryMask = false
    /// The locale of the category names; the selfie models have no names, so any locale does.
    public var displayNamesLocale = "en"
    /// Receives the results of ``ImageSegmenter/segmentAsync(image:timestampInMilliseconds:)``, in order, in
    /// `.liveStream` mode; held weakly.
    public weak var imageSegmenterLiveStreamDelegate: (any ImageSegmenterLiveStreamDelegate)?

    /// MediaPipe's defaults: image mode, confidence masks, no category mask.
    public override init() {}

    /// The segmentation task's options for these: every frame on its own, as MediaPipe's segmenter (no
    /// smoothing from frame to frame); refuses asking for no mask at all, as MediaPipe does.
    func taskOptions() throws -> SegmentTask.Options {
        guard shouldOutputConfidenceMasks || shouldOutputCategoryMask else {
            throw VisionTaskError.invalidOption("at least one of shouldOutputConfidenceMasks and shouldOutputCategoryMask must be set")
        }
        var options = SegmentTask.Options()
        options.model = baseOptions.modelPath
        options.smoothing = 0
        options.threads = threadCount
        return options
    }
}

/// Receives live-stream results of an ``ImageSegmenter``, as MediaPipe's `ImageSegmenterLiveStreamDelegate`.
/// Called on the segmenter's own queue, one frame at a time, in timestamp order.
public protocol ImageSegmenterLiveStreamDelegate: NSObjectProtocol, Sendable {
    /// The result of the frame sent with `timestampInMilliseconds`, or the error that stopped it.
    func imageSegmenter(
        _ imageSegmenter: ImageSegmenter, didFinishSegmentation result: ImageSegmenterResult?, timestampInMilliseconds: Int,
        error: (any Error)?)
}

/// Separates people from the background (MediaPipe's `ImageSegmenter` with a selfie segmentation model) in
/// single images, video frames or a live stream. Safe to share between threads.
public final class ImageSegmenter: Sendable {
    /// The options the segmenter was made with.
    public let options: ImageSegmenterOptions
    private let api: VisionTaskApi<SegmentTask, ImageSegmenterResult>

    /// Loads the model: the installed selfie segmentation model, or the `.tflite` at `baseOptions.modelAssetPath`.
    public init(options: ImageSegmenterOptions = ImageSegmenterOptions()) throws {
        self.options = options
        let reference = WeakReference<ImageSegmenter>()
        let deliver = VisionTaskApi<SegmentTask, ImageSegmenterResult>.delivery(
            to: options.imageSegmenterLiveStreamDelegate, of: reference
        ) { $0.imageSegmenter($1, didFinishSegmentation: $2, timestampInMilliseconds: $3, error: $4) }
        let (confidence, category) = (options.shouldOutputConfidenceMasks, options.shouldOutputCategoryMask)
        api = try VisionTaskApi(
            task: { try SegmentTask(options: options.taskOptions()) }, runningMode: options.runningMode,
            result: { output, timestamp in
                ImageSegmenterResult(output, timestamp: timestamp, confidenceMasks: confidence, categoryMask: category)
            },
            deliver: deliver)
        reference.object = self
    }

    /// A segmenter in image mode for the model at `modelPath`.
    public convenience init(modelPath: String) throws {
        let options = ImageSegmenterOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// The masks of one image, in `.image` mode.
    public func segment(image: VisionImage) throws -> ImageSegmenterResult {
        try api.run(image)
    }

    /// The masks of the next frame of a video, in `.video` mode; timestamps must increase.
    public func segment(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> ImageSegmenterResult {
        try api.run(videoFrame: image, timestampInMilliseconds: timestamp)
    }

    /// Sends the next frame of a live stream, in `.liveStream` mode, and returns at once; timestamps must
    /// increase. Results go to the delegate, in order; one frame is processed at a time and the newest
    /// frame that arrives meanwhile goes next (older waiting ones are dropped).
    public func segmentAsync(image: VisionImage, timestampInMilliseconds timestamp: Int) throws {
        try api.send(image, timestampInMilliseconds: timestamp)
    }

    /// Ends the segmenter; later calls fail with ``TasksErrorCode/invalidArgumentError``, as in MediaPipe.
    public func close() {
        api.close()
    }
}

/// The masks ``ImageSegmenter`` made for one image, as MediaPipe's `ImageSegmenterResult`, at the upright
/// image's size.
public struct ImageSegmenterResult: Sendable {
    /// One float mask per category of the model (the selfie models have one, the person), each pixel's
    /// confidence 0–1, scaled bilinearly from the model's output; nil unless asked for.
    public let confidenceMasks: [Mask]?
    /// One byte a pixel, the category the pixel belongs to, nil unless asked for. With a one-category model,
    /// as MediaPipe: 0 (the category) where the model's confidence exceeds 0.5, 255 (none) elsewhere.
    public let categoryMask: Mask?
    /// The timestamp given with the frame; 0 for single images.
    public let timestampInMilliseconds: Int

    /// The value of the category mask where a pixel belongs to no category.
    static let noCategory: UInt8 = 255

    init(_ output: SegmentTask.Output, timestamp: Int, confidenceMasks: Bool, categoryMask: Bool) {
        let mask = output.mask
        self.confidenceMasks = confidenceMasks ? [Mask(float32Data: mask.confidences, width: mask.width, height: mask.height)] : nil
        self.categoryMask = categoryMask ? Self.categories(of: output.modelMask, width: mask.width, height: mask.height) : nil
        timestampInMilliseconds = timestamp
    }

    /// The category mask of the model's own mask `model`, at `width` × `height`: each pixel's confidence
    /// sampled bilinearly from the model's mask with the corner pixels of both aligned (as MediaPipe's CPU
    /// post-processing samples it for this mask; its confidence masks are scaled with pixel centres aligned).
    private static func categories(of model: SegmentationMask, width: Int, height: Int) -> Mask {
        let confidences = model.confidences
        func scale(_ model: Int, _ image: Int) -> Float { image > 1 ? Float(model - 1) / Float(image - 1) : 0 }
        let (scaleX, scaleY) = (scale(model.width, width), scale(model.height, height))
        let columns = (0..<width).map { x -> (Int, Int, Float) in
            let position = Float(x) * scaleX
            let left = min(Int(position), model.width - 1)
            return (left, min(left + 1, model.width - 1), position - Float(left))
        }
        var values = [UInt8](repeating: noCategory, count: width * height)
        for y in 0..<height {
            let position = Float(y) * scaleY
            let top = min(Int(position), model.height - 1)
            let (upper, lower) = (top * model.width, min(top + 1, model.height - 1) * model.width)
            let down = position - Float(top)
            for x in 0..<width {
                let (left, right, across) = columns[x]
                let above = confidences[upper + left] + (confidences[upper + right] - confidences[upper + left]) * across
                let below = confidences[lower + left] + (confidences[lower + right] - confidences[lower + left]) * across
                if above + (below - above) * down > SegmentationMask.personThreshold { values[y * width + x] = 0 }
            }
        }
        return Mask(uInt8Data: values, width: width, height: height)
    }
}
