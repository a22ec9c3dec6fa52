import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Finds objects: the model zoo's YOLOv4-tiny (COCO-80) or another packed YOLO detector, objects
/// labelled with their COCO class and ML Kit's coarse category, or by a custom classifier on their
/// crops. In a stream, objects keep tracking IDs across frames (ByteTrack association), also through
/// a few frames of occlusion.
public struct ObjectsTask: VisionTask {
    /// The settings of the objects task, named as the `detect` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// Report up to ``maxObjects`` objects; otherwise only the most prominent one.
        public var multiple = false
        /// Label each object (COCO class and coarse category, or the custom classifier's labels).
        public var classify = false
        /// Lowest detection score to report, 0–1; nil for the model's recommended 0.25.
        public var threshold: Float?
        /// Most objects reported with ``multiple``; ML Kit's 5.
        public var maxObjects = 5
        /// A custom `.tflite` classifier that labels each object's crop.
        public var model: String?
        /// Lowest label confidence of the custom classifier; nil takes its metadata's score threshold, else 0.
        public var classificationThreshold: Float?
        /// Most labels per object from the custom classifier.
        public var maxLabels = 10
        /// The detector model file; nil for the model zoo's YOLOv4-tiny.
        public var detector: String?
        /// Threads for inference; nil for the default.
        public var threads: Int?
        /// In a stream, end every track at a hard cut between shots, so that the next shot's objects get
        /// new IDs.
        public var sceneCuts = true

        /// The default settings.
        public init() {}

        func validate() throws {
            try VisionTaskError.checkThreads(threads)
            if let threshold, !(0...1).contains(threshold) {
                throw VisionTaskError.invalidOption("must lie in 0…1, not \(threshold)", key: "threshold")
            }
            guard maxObjects > 0 else { throw VisionTaskError.invalidOption("must be at least 1", key: "maxObjects") }
            if let classificationThreshold, !(0...1).contains(classificationThreshold) {
                throw VisionTaskError.invalidOption("must lie in 0…1, not \(classificationThreshold)", key: "classificationThreshold")
            }
            guard maxLabels > 0 else { throw VisionTaskError.invalidOption("must be at least 1", key: "maxLabels") }
        }
    }

    /// The objects of one image or frame.
    public struct Output: Codable, Sendable, Equatable {
        /// The upright image's width in pixels.
        public var width: Int
        /// The upright image's height in pixels.
        public var height: Int
        /// The objects, most confident (or most prominent) first.
        public var objects: [DetectedObject]

        /// The objects of an image `width` × `height` pixels.
        public init(width: Int, height: Int, objects: [DetectedObject]) {
            self.width = width
            self.height = height
            self.objects = objects
        }
    }

    /// The tracks of a stream.
    public typealias StreamState = ByteTracker

    /// Named `objects`, with the model zoo's YOLOv4-tiny (COCO) detector.
    public static let descriptor = TaskDescriptor(
        name: "objects", title: "Objects", summary: "Objects with COCO classes, coarse categories and tracking IDs",
        tracksAcrossFrames: true, models: [ObjectDetectionModel.defaultModelName], hiddenOptions: ["maxLabels"])
    /// The default settings.
    public static var defaultOptions: Options { Options() }

    /// The settings the task was made with.
    public let options: Options
    private let model: ObjectDetectionModel
    private let classifier: LabelsTask?

    /// Checks the options and loads the detector and, to classify with a custom model, the classifier.
    public init(options: Options, store: ModelStore) throws {
        try options.validate()
        self.options = options
        let threads = options.threads ?? LiteRT.CompilationOptions.default.threadCount
        let url = options.detector.map { URL(fileURLWithPath: $0) }
            ?? SwiftVisionCache.current.model(named: ObjectDetectionModel.defaultModelName)
        model = try ObjectDetectionModel(url: url, options: LiteRT.CompilationOptions(threadCount: threads), store: store)
        classifier = try options.model.flatMap { path -> LabelsTask? in
            guard options.classify else { return nil }
            var labeler = LabelsTask.Options()
            labeler.model = path
            labeler.max = options.maxLabels
            labeler.threads = threads
            let metadata = try store.model(contentsOf: URL(fileURLWithPath: path)).metadata
            labeler.threshold = options.classificationThreshold ?? metadata?.outputs.first?.scoreThreshold ?? 0
            return try LabelsTask(options: labeler, store: store)
        }
    }

    /// The class names of the detector.
    public var labels: [String] { model.labels }

    /// A stream with no object tracked yet.
    public func makeStreamState() -> ByteTracker { ByteTracker() }

    /// The objects in one image on its own.
    public func output(for image: VisionImage) throws -> Output {
        let detections = try model.detect(in: image, minimumScore: options.threshold)
        return Output(width: image.width, height: image.height, objects: try select(detections.map { ($0, nil) }, in: image))
    }

    /// The objects in the next frame of a stream, with tracking IDs kept from frame to frame.
    public func output(forFrame image: VisionImage, state: inout ByteTracker) throws -> Output {
        if options.sceneCuts, try state.sceneCuts.isCut(image) { state.endTracks() }
        let floor = min(options.threshold ?? model.decoding.scoreThreshold, ByteTracker.Configuration().lowScore)
        let tracked = state.update(with: try model.detect(in: image, minimumScore: floor))
        return Output(width: image.width, height: image.height, objects: try select(tracked.map { ($0.detection, $0.id) }, in: image))
    }

    /// Keeps the objects to report (several, or the most prominent) and labels them, with the custom
    /// classifier on their crops when there is one.
    private func select(_ found: [(detection: Detection, id: Int?)], in image: VisionImage) throws -> [DetectedObject] {
        let ranked: [(detection: Detection, id: Int?)]
        if options.multiple {
            ranked = Array(found.sorted { $0.detection.score > $1.detection.score }.prefix(options.maxObjects))
        } else {
            ranked = found.max { prominence($0.detection, in: image) < prominence($1.detection, in: image) }.map { [$0] } ?? []
        }
        let custom = try classifier?.labels(in: image, regions: ranked.map(\.detection.boundingBox))
        return ranked.enumerated().map { index, object in
            let labels: [ClassLabel]
            if let custom {
                labels = custom[index]
            } else {
                labels = options.classify ? self.labels(for: object.detection) : []
            }
            return DetectedObject(frame: object.detection.boundingBox, trackingID: object.id, labels: labels)
        }
    }

    /// Large, central and confident objects are prominent.
    private func prominence(_ detection: Detection, in image: VisionImage) -> Double {
        let box = detection.boundingBox
        let area = box.width * box.height / (Double(image.width) * Double(image.height))
        let offset = hypot(box.midX / Double(image.width) - 0.5, box.midY / Double(image.height) - 0.5) / hypot(0.5, 0.5)
        return area * (1 - offset) * Double(detection.score)
    }

    private func labels(for detection: Detection) -> [ClassLabel] {
        guard let index = detection.labelIndex, index < model.labels.count else { return [] }
        let name = model.labels[index]
        let coco = ClassLabel(text: name, confidence: detection.score, index: index)
        guard let category = ObjectCategory(cocoClass: name) else { return [coco] }
        return [ClassLabel(text: category.text, confidence: detection.score, index: category.rawValue), coco]
    }
}
