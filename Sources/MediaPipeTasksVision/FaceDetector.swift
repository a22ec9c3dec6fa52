import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ``FaceDetector``, as MediaPipe's `FaceDetectorOptions`: a class, set on a `let`. The model is
/// MediaPipe's short-range BlazeFace, the installed `face_detection_short_range.tflite` (the weights of
/// MediaPipe's `blaze_face_short_range.tflite`); `baseOptions.modelAssetPath` may name a copy of that file.
public final class FaceDetectorOptions: TaskOptions, @unchecked Sendable {
    /// Lowest detection score to report, 0–1.
    public var minDetectionConfidence: Float = 0.5
    /// The overlap (intersection over union) from which two detections are taken for one face and merged, 0–1.
    public var minSuppressionThreshold: Float = 0.3
    /// Receives the results of ``FaceDetector/detectAsync(image:timestampInMilliseconds:)``, in order, in
    /// `.liveStream` mode; held weakly.
    public weak var faceDetectorLiveStreamDelegate: (any FaceDetectorLiveStreamDelegate)?

    /// MediaPipe's defaults: image mode, confidence 0.5, suppression 0.3.
    public override init() {}

    /// The detection task's options for these, once the model is checked.
    func taskOptions() throws -> FaceDetectionTask.Options {
        try InstalledModel.check(baseOptions.modelPath, installed: FaceDetectionTask.modelName, task: "FaceDetector")
        return FaceDetectionTask.Options(
            minimumConfidence: minDetectionConfidence, suppressionThreshold: minSuppressionThreshold, threads: threadCount)
    }
}

/// Receives live-stream results of a ``FaceDetector``, as MediaPipe's `FaceDetectorLiveStreamDelegate`.
/// Called on the detector's own queue, one frame at a time, in timestamp order.
public protocol FaceDetectorLiveStreamDelegate: NSObjectProtocol, Sendable {
    /// The result of the frame sent with `timestampInMilliseconds`, or the error that stopped it.
    func faceDetector(
        _ faceDetector: FaceDetector, didFinishDetection result: FaceDetectorResult?, timestampInMilliseconds: Int,
        error: (any Error)?)
}

/// Finds faces and their six key points (MediaPipe's `FaceDetector`) in single images, video frames or a
/// live stream, as MediaPipe's face detector graph: the short-range BlazeFace on the whole image, weighted
/// suppression; every frame on its own. Safe to share between threads.
public final class FaceDetector: Sendable {
    /// The options the detector was made with.
    public let options: FaceDetectorOptions
    private let api: VisionTaskApi<FaceDetectionTask, FaceDetectorResult>

    /// Loads the model; fails when `baseOptions.modelAssetPath` names a missing file or another model.
    public init(options: FaceDetectorOptions = FaceDetectorOptions()) throws {
        self.options = options
        let reference = WeakReference<FaceDetector>()
        let deliver = VisionTaskApi<FaceDetectionTask, FaceDetectorResult>.delivery(
            to: options.faceDetectorLiveStreamDelegate, of: reference
        ) { $0.faceDetector($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4) }
        api = try VisionTaskApi(
            task: { try FaceDetectionTask(options: options.taskOptions()) }, runningMode: options.runningMode, result: FaceDetectorResult.init,
            deliver: deliver)
        reference.object = self
    }

    /// A detector in image mode for the model at `modelPath`.
    public convenience init(modelPath: String) throws {
        let options = FaceDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// The faces of one image, in `.image` mode.
    public func detect(image: VisionImage) throws -> FaceDetectorResult {
        try api.run(image)
    }

    /// The faces of the next frame of a video, in `.video` mode; timestamps must increase.
    public func detect(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> FaceDetectorResult {
        try api.run(videoFrame: image, timestampInMilliseconds: timestamp)
    }

    /// Sends the next frame of a live stream, in `.liveStream` mode, and returns at once; timestamps must
    /// increase. Results go to the delegate, in order; one frame is processed at a time and the newest
    /// frame that arrives meanwhile goes next (older waiting ones are dropped).
    public func detectAsync(image: VisionImage, timestampInMilliseconds timestamp: Int) throws {
        try api.send(image, timestampInMilliseconds: timestamp)
    }

    /// Ends the detector; later calls fail with ``TasksErrorCode/invalidArgumentError``, as in MediaPipe.
    public func close() {
        api.close()
    }
}

/// What ``FaceDetector`` found in one image, as MediaPipe's `FaceDetectorResult`.
public struct FaceDetectorResult: Sendable, Hashable {
    /// The faces, the most confident first: each with one category (index 0, the detection score), its box
    /// in whole pixels as MediaPipe reports it (origin and size truncated, the origin kept inside the image)
    /// and its six key points (the subject's right eye, left eye, nose tip, mouth, right ear, left ear).
    public let detections: [Detection]
    /// The timestamp given with the frame; 0 for single images.
    public let timestampInMilliseconds: Int

    init(_ output: FaceDetectionTask.Output, timestamp: Int) {
        let (width, height) = (Double(output.width), Double(output.height))
        detections = output.faces.map { face in
            let box = face.boundingBox
            return Detection(
                categories: [ResultCategory(index: 0, score: face.score, categoryName: nil, displayName: nil)],
                boundingBox: CGRect(
                    x: max(0, box.minX).rounded(.towardZero), y: max(0, box.minY).rounded(.towardZero),
                    width: box.width.rounded(.towardZero), height: box.height.rounded(.towardZero)),
                keypoints: face.keypoints.map {
                    NormalizedKeypoint(location: CGPoint(x: $0.x / width, y: $0.y / height), label: nil, score: nil)
                })
        }
        timestampInMilliseconds = timestamp
    }
}
