import Foundation
import Synchronization

/// Finds objects in images and streams (ML Kit's `ObjectDetector`, on the model zoo's YOLOv3-tiny).
///
/// In stream mode objects keep tracking IDs across frames (ByteTrack association), also through a few
/// frames of occlusion. Safe to share between threads; frames are processed one at a time.
public final class ObjectDetector: Sendable {
    public let options: ObjectDetectorOptions
    private let model: ObjectDetectionModel
    private let classifier: ImageLabeler?
    private let stream = Mutex(StreamState())
    private let busy = Atomic<Bool>(false)

    private struct StreamState {
        var tracker = ByteTracker()
        var lastTimestamp: Int?
    }

    /// Loads the detector model (installed by `make run` / `scripts/build-models.sh`).
    public init(options: ObjectDetectorOptions = ObjectDetectorOptions()) throws {
        self.options = options
        model = try ObjectDetectionModel(url: options.modelURL, options: LiteRT.CompilationOptions(threadCount: options.threadCount))
        classifier = try options.classifier.map { base in
            var labeler = base
            labeler.maxResultCount = options.maxPerObjectLabelCount
            labeler.threadCount = options.threadCount
            let metadata = try LiteRT.Model(contentsOf: try base.source.fileURL()).metadata
            labeler.confidenceThreshold = options.classificationConfidenceThreshold ?? metadata?.outputs.first?.scoreThreshold ?? 0
            return try ImageLabeler(options: labeler)
        }
    }

    /// The class names of the detector.
    public var labels: [String] { model.labels }

    /// The objects in `image`; in stream mode, the next frame of the stream.
    public func results(in image: VisionImage) throws -> [DetectedObject] {
        switch options.detectorMode {
        case .singleImage:
            let detections = try model.detect(in: image, minimumScore: options.detectionConfidenceThreshold)
            return try select(detections.map { ($0, nil) }, in: image)
        case .stream:
            return try nextFrame(image, timestamp: nil)
        }
    }

    /// The objects in the next frame of a video, with tracking IDs; timestamps must increase.
    public func results(inVideoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> [DetectedObject] {
        try nextFrame(image, timestamp: timestamp)
    }

    /// The objects in `image`, computed off the caller's task. With
    /// ``ObjectDetectorOptions/alwaysDiscardsLateVideoFrames`` in stream mode, a call made while another
    /// is running fails at once with ``ObjectDetectorError/frameDropped``.
    public func process(_ image: VisionImage) async throws -> [DetectedObject] {
        let dropsLateFrames = options.alwaysDiscardsLateVideoFrames && options.detectorMode == .stream
        if dropsLateFrames {
            guard busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
                throw ObjectDetectorError.frameDropped
            }
        }
        defer { if dropsLateFrames { busy.store(false, ordering: .releasing) } }
        return try await Task.detached(priority: .userInitiated) { try self.results(in: image) }.value
    }

    /// Forgets tracked objects; the next frame starts a new stream.
    public func reset() {
        stream.withLock { $0 = StreamState() }
    }

    private func nextFrame(_ image: VisionImage, timestamp: Int?) throws -> [DetectedObject] {
        let floor = min(options.detectionConfidenceThreshold ?? model.decoding.scoreThreshold, ByteTracker.Configuration().lowScore)
        return try stream.withLock { state in
            if let timestamp {
                if let last = state.lastTimestamp, timestamp <= last {
                    throw ObjectDetectorError.nonIncreasingTimestamp(previous: last, current: timestamp)
                }
                state.lastTimestamp = timestamp
            }
            let tracked = state.tracker.update(with: try model.detect(in: image, minimumScore: floor))
            return try select(tracked.map { ($0.detection, $0.id) }, in: image)
        }
    }

    /// Keeps the objects to report (several, or the most prominent) and labels them, with the custom
    /// classifier on their crops when there is one.
    private func select(_ found: [(detection: Detection, id: Int?)], in image: VisionImage) throws -> [DetectedObject] {
        let ranked: [(detection: Detection, id: Int?)]
        if options.shouldEnableMultipleObjects {
            ranked = Array(found.sorted { $0.detection.score > $1.detection.score }.prefix(options.maximumObjectCount))
        } else {
            ranked = found.max { prominence($0.detection, in: image) < prominence($1.detection, in: image) }.map { [$0] } ?? []
        }
        let custom = try classifier?.results(in: image, regions: ranked.map(\.detection.boundingBox))
        return ranked.enumerated().map { index, object in
            let labels: [ObjectLabel]
            if let custom {
                labels = custom[index].map { ObjectLabel(text: $0.text, confidence: $0.confidence, index: $0.index) }
            } else {
                labels = options.shouldEnableClassification ? self.labels(for: object.detection) : []
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

    private func labels(for detection: Detection) -> [ObjectLabel] {
        guard let index = detection.labelIndex, index < model.labels.count else { return [] }
        let name = model.labels[index]
        let coco = ObjectLabel(text: name, confidence: detection.score, index: index)
        guard let category = ObjectCategory(cocoClass: name) else { return [coco] }
        return [ObjectLabel(text: category.text, confidence: detection.score, index: category.rawValue), coco]
    }
}
