import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Options of ``ObjectDetector``, as MediaPipe's `ObjectDetectorOptions`: a class, set on a `let`. The
/// detector is the model zoo's YOLOv4-tiny (COCO's 80 classes) unless `baseOptions` names another; a
/// `scoreThreshold` of 0 keeps the model's own threshold (0.25), as MediaPipe keeps one from a model's metadata.
public final class ObjectDetectorOptions: ClassifyingTaskOptions, @unchecked Sendable {
    /// Receives the results of ``ObjectDetector/detectAsync(image:timestampInMilliseconds:)``, in order,
    /// in `.liveStream` mode; held weakly.
    public weak var objectDetectorLiveStreamDelegate: (any ObjectDetectorLiveStreamDelegate)?

    /// The most objects the detector is asked for before the lists and ``maxResults`` apply.
    static let candidateCount = 100

    /// MediaPipe's defaults: the model zoo's detector in image mode, every object.
    public override init() {}

    /// The objects task's options for these: every object, labelled with its class.
    var taskOptions: ObjectsTask.Options {
        var options = ObjectsTask.Options()
        options.multiple = true
        options.classify = true
        options.maxObjects = Self.candidateCount
        options.detector = baseOptions.modelPath
        options.threshold = scoreThreshold > 0 ? scoreThreshold : nil
        options.threads = threadCount
        return options
    }
}

/// Receives live-stream results of an ``ObjectDetector``, as MediaPipe's `ObjectDetectorLiveStreamDelegate`.
/// Called on the detector's own queue, one frame at a time, in timestamp order.
public protocol ObjectDetectorLiveStreamDelegate: NSObjectProtocol, Sendable {
    /// The result of the frame sent with `timestampInMilliseconds`, or the error that stopped it.
    func objectDetector(
        _ objectDetector: ObjectDetector, didFinishDetection result: ObjectDetectorResult?, timestampInMilliseconds: Int,
        error: (any Error)?)
}

/// Finds objects and their classes (MediaPipe's `ObjectDetector`) in single images, video frames or a
/// live stream. Safe to share between threads.
public final class ObjectDetector: Sendable {
    /// The options the detector was made with.
    public let options: ObjectDetectorOptions
    private let api: VisionTaskApi<ObjectsTask, ObjectDetectorResult>

    /// Loads the detector: the installed YOLOv4-tiny, or the `.tflite` at `baseOptions.modelAssetPath`.
    public init(options: ObjectDetectorOptions = ObjectDetectorOptions()) throws {
        self.options = options
        let reference = WeakReference<ObjectDetector>()
        let deliver = VisionTaskApi<ObjectsTask, ObjectDetectorResult>.delivery(to: options.objectDetectorLiveStreamDelegate, of: reference) {
            $0.objectDetector($1, didFinishDetection: $2, timestampInMilliseconds: $3, error: $4)
        }
        let (allow, deny, most) = (Set(options.categoryAllowlist), Set(options.categoryDenylist), options.maxResults)
        api = try VisionTaskApi(
            task: {
                try options.validate()
                return try ObjectsTask(options: options.taskOptions)
            },
            runningMode: options.runningMode,
            result: { output, timestamp in
                ObjectDetectorResult(output, timestamp: timestamp, allowlist: allow, denylist: deny, maxResults: most)
            },
            deliver: deliver)
        reference.object = self
    }

    /// A detector in image mode for the model at `modelPath`.
    public convenience init(modelPath: String) throws {
        let options = ObjectDetectorOptions()
        options.baseOptions.modelAssetPath = modelPath
        try self.init(options: options)
    }

    /// The objects of one image, in `.image` mode.
    public func detect(image: VisionImage) throws -> ObjectDetectorResult {
        try api.run(image)
    }

    /// The objects of the next frame of a video, in `.video` mode; timestamps must increase.
    public func detect(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> ObjectDetectorResult {
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

/// What ``ObjectDetector`` found in one image, as MediaPipe's `ObjectDetectorResult`.
public struct ObjectDetectorResult: Sendable, Hashable {
    /// The objects, the most confident first: each with its class (one category) and box.
    public let detections: [Detection]
    /// The timestamp given with the frame; 0 for single images.
    public let timestampInMilliseconds: Int

    init(_ output: ObjectsTask.Output, timestamp: Int, allowlist: Set<String>, denylist: Set<String>, maxResults: Int) {
        let found = output.objects.compactMap { object -> Detection? in
            // The last label is the detector's own class; the first, ML Kit's coarse category.
            guard let label = object.labels.last, allowlist.isEmpty || allowlist.contains(label.text),
                !denylist.contains(label.text)
            else { return nil }
            return Detection(categories: [ResultCategory(label)], boundingBox: object.frame, keypoints: nil)
        }
        detections = maxResults < 0 ? found : Array(found.prefix(maxResults))
        timestampInMilliseconds = timestamp
    }
}
