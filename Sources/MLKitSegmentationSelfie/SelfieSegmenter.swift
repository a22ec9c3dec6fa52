import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ML Kit's selfie segmenter (`SelfieSegmenterOptions`), for ``Segmenter``.
public struct SelfieSegmenterOptions: Sendable, Equatable {
    /// Whether images are independent photos or the frames of a stream.
    public enum SegmenterMode: Sendable, Equatable {
        /// Each image on its own.
        case singleImage
        /// Successive frames of a video or camera: each mask is blended with the previous one where it
        /// is unsure (MediaPipe's mask smoothing), which steadies the edges.
        case stream
    }

    /// Single images or a stream; ML Kit's default is `.stream`.
    public var segmenterMode: SegmenterMode = .stream
    /// Return the mask at the model's output size (256×256) instead of the image's size.
    public var shouldEnableRawSizeMask = false
    /// In stream mode, how much of the previous mask uncertain pixels take, 0–1.
    public var smoothing: Float = 0.7
    /// Threads for inference.
    public var threadCount = LiteRT.CompilationOptions.default.threadCount

    /// ML Kit's defaults: stream mode, masks at the image's size.
    public init() {}

    /// The segmentation task's options for these.
    var taskOptions: SegmentTask.Options {
        var options = SegmentTask.Options()
        options.rawSize = shouldEnableRawSizeMask
        options.smoothing = smoothing
        options.threads = threadCount
        return options
    }
}

/// Separates people from the background, as ML Kit's `Segmenter` made with `SelfieSegmenterOptions`
/// (on MediaPipe's selfie segmentation model): a ``SegmentationMask`` of person confidences, upright,
/// at the image's size (or the model's, with ``SelfieSegmenterOptions/shouldEnableRawSizeMask``).
///
/// Safe to share between threads. In stream mode successive calls form a stream whose masks are
/// smoothed from frame to frame; stream frames are processed one at a time.
public final class Segmenter: Sendable {
    /// The options the segmenter was made with.
    public let options: SelfieSegmenterOptions
    private let runner: TaskRunner<SegmentTask>

    /// Loads the model (installed by `swiftvision setup`).
    public init(options: SelfieSegmenterOptions = SelfieSegmenterOptions()) throws {
        self.options = options
        runner = TaskRunner(
            task: try SegmentTask(options: options.taskOptions), runningMode: options.segmenterMode == .stream ? .video : .image)
    }

    /// A segmenter with `options`, as ML Kit's `Segmenter.segmenter(options:)`.
    public static func segmenter(options: SelfieSegmenterOptions = SelfieSegmenterOptions()) throws -> Segmenter {
        try Segmenter(options: options)
    }

    /// The person mask of `image`; in stream mode, of the next frame of the stream.
    public func results(in image: VisionImage) throws -> SegmentationMask {
        try (options.segmenterMode == .stream ? runner.run(videoFrame: image) : runner.run(image)).mask
    }

    /// The person mask of the next frame of a video in stream mode; timestamps must increase.
    public func results(inVideoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> SegmentationMask {
        try runner.run(videoFrame: image, timestampInMilliseconds: timestamp).mask
    }

    /// The person mask of `image`, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> SegmentationMask {
        try await runner.process(image).mask
    }

    /// The person mask of `image`, delivered to `completion` (ML Kit's callback style).
    public func process(_ image: VisionImage, completion: @escaping @Sendable (SegmentationMask?, (any Error)?) -> Void) {
        complete(completion) { try await self.process(image) }
    }

    /// Forgets the previous mask; the next frame starts a new stream.
    public func reset() {
        runner.reset()
    }

    /// Ends the segmenter; later calls fail with ``VisionTaskError/closed``.
    public func close() {
        runner.close()
    }
}
