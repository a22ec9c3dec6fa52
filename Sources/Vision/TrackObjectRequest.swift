import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Follows one object from a seed box frame after frame, as Vision's `TrackObjectRequest`, performed by a
/// ``SequenceRequestHandler``. The first frame performed must be the frame the seed box belongs to.
/// Feeding a result back (same ``DetectedObjectObservation/uuid``) continues the track; a new observation
/// starts another. Several requests with different seeds track several objects at once.
public struct TrackObjectRequest: SequenceVisionRequest {
    /// Speed against precision of the tracker: `.fast` is OpenCV's KCF, `.accurate` its CSRT.
    public typealias TrackingLevel = TrackTask.Level

    /// The seed, or the previous frame's result.
    public let inputObservation: DetectedObjectObservation
    /// The tracker; `.fast` by default, as Vision's (its documentation of `VNRequestTrackingLevel.fast`:
    /// the default option used by trackers).
    public var trackingLevel: TrackingLevel = .fast
    /// Releases the tracker after this frame.
    public var isLastFrame = false
    /// Called with the request's results or error each time a handler performs it (Vision's
    /// `completionHandler`); nil for none.
    public var completionHandler: CompletionHandler?
    /// What the request produces: the object's box in the frame.
    public typealias Result = DetectedObjectObservation

    /// A request to follow `detectedObjectObservation`.
    public init(detectedObjectObservation: DetectedObjectObservation) {
        inputObservation = detectedObjectObservation
    }

    /// A request to follow a rectangle that ``DetectRectanglesRequest`` found, under the rectangle's
    /// ``RectangleObservation/uuid``, as a `VNRectangleObservation` (a kind of `VNDetectedObjectObservation`)
    /// seeds Vision's tracker.
    public init(detectedObjectObservation rectangle: RectangleObservation) {
        self.init(detectedObjectObservation: DetectedObjectObservation(rectangle))
    }

    /// Without a sequence there is nothing to follow: the seed is returned as it is.
    public func perform(on image: VisionImage) throws -> DetectedObjectObservation {
        inputObservation
    }

    /// Requests continuing the same observation share one tracker.
    public var sequenceKey: AnyHashable { inputObservation.uuid }
    /// Whether the handler forgets the tracker after this frame.
    public var endsSequence: Bool { isLastFrame }

    /// No tracker until the first frame, which gives the seed's size in pixels.
    public func makeSequenceState() -> TaskRunner<TrackTask>? { nil }

    /// Follows the object into the next frame; the first frame starts the tracker on the seed.
    public func perform(on image: VisionImage, state: inout TaskRunner<TrackTask>?) throws -> DetectedObjectObservation {
        let runner = try state ?? {
            var options = TrackTask.Options()
            options.boxes = [PixelRect(inputObservation.imageRect(imageSize: image.size))]
            options.level = trackingLevel
            return TaskRunner(task: try TrackTask(options: options), runningMode: .video)
        }()
        let isFirst = state == nil
        state = runner
        let track = try runner.run(videoFrame: image).tracks[0]
        if isFirst { return inputObservation }
        return DetectedObjectObservation(
            uuid: inputObservation.uuid,
            boundingBox: track.boundingBox.rect.converted(from: .pixels, to: .normalizedLowerLeft, imageSize: image.size),
            confidence: track.confidence, isLost: track.lost)
    }
}
