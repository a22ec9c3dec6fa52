import Dispatch
import Foundation
import MLKitVision
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ML Kit's selfie segmenter, as ML Kit's `SelfieSegmenterOptions`: a class, set on a `let`.
public final class SelfieSegmenterOptions: @unchecked Sendable {
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
    /// Where ``Segmenter/process(_:completion:)`` calls its completion: the main queue, as on iOS, which a
    /// program must serve (`dispatchMain()`, `RunLoop.main.run()`); set another queue in a program
    /// without a main loop.
    public var callbackQueue: DispatchQueue = .main

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
    private let detector: Detector<SegmentTask>

    private init(options: SelfieSegmenterOptions) {
        let taskOptions = options.taskOptions
        detector = Detector(stream: options.segmenterMode == .stream, callbackQueue: options.callbackQueue) {
            try SegmentTask(options: taskOptions)
        }
    }

    /// A segmenter with `options`, as ML Kit's `Segmenter.segmenter(options:)`. It does not fail: a model
    /// that cannot be loaded is reported by each call, as an error in ``mlKitErrorDomain``.
    public static func segmenter(options: SelfieSegmenterOptions) -> Segmenter {
        Segmenter(options: options)
    }

    /// The person mask of `image`; in stream mode, of the next frame of the stream.
    public func results(in image: VisionImage) throws -> SegmentationMask {
        try detector.output(for: image).mask
    }

    /// The person mask of the next frame of a video in stream mode; timestamps must increase.
    public func results(inVideoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> SegmentationMask {
        try detector.output(forVideoFrame: image, timestampInMilliseconds: timestamp).mask
    }

    /// The person mask of `image`, handed to `completion` on the options' callback queue (the main queue
    /// unless set otherwise), as ML Kit's `process(_:completion:)`.
    public func process(_ image: VisionImage, completion: @escaping @Sendable (SegmentationMask?, (any Error)?) -> Void) {
        detector.process(image, results: { $0.mask }, completion: completion)
    }

    /// The person mask of `image`, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> SegmentationMask {
        try await detector.output(processing: image).mask
    }

    /// Forgets the previous mask; the next frame starts a new stream.
    public func reset() {
        detector.reset()
    }

    /// Ends the segmenter; later calls fail with ``MLKitErrorCode/failedPrecondition``.
    public func close() {
        detector.close()
    }
}
