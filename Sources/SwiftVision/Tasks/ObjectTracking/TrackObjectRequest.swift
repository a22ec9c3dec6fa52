import CVisionShim
import Foundation

/// Follows one object from a seed box frame after frame, as Vision's `TrackObjectRequest`, performed by a
/// ``SequenceRequestHandler``. The first frame performed must be the frame the seed box belongs to.
/// Feeding a result back (same ``DetectedObjectObservation/id``) continues the track; a new observation
/// starts another. Several requests with different seeds track several objects at once.
public struct TrackObjectRequest: SequenceVisionRequest {
    /// Speed against precision of the tracker.
    public enum TrackingLevel: String, Sendable, CaseIterable {
        /// OpenCV's KCF tracker: hundreds of frames per second, loses objects that change scale.
        case fast
        /// OpenCV's CSRT tracker: slower, follows scale changes and partial occlusion.
        case accurate
    }

    public let inputObservation: DetectedObjectObservation
    public var trackingLevel: TrackingLevel = .accurate
    /// Releases the tracker after this frame.
    public var isLastFrame = false

    public init(detectedObjectObservation: DetectedObjectObservation) {
        inputObservation = detectedObjectObservation
    }

    /// Without a sequence there is nothing to follow: the seed is returned as it is.
    public func perform(on image: VisionImage) throws -> DetectedObjectObservation {
        inputObservation
    }

    public var sequenceKey: AnyHashable { inputObservation.id }
    public var endsSequence: Bool { isLastFrame }

    public func makeSequenceState() -> SingleObjectTracker? { nil }

    public func perform(on image: VisionImage, state: inout SingleObjectTracker?) throws -> DetectedObjectObservation {
        guard let tracker = state else {
            state = try SingleObjectTracker(
                kind: trackingLevel == .fast ? SV_TRACKER_KCF : SV_TRACKER_CSRT, image: image,
                box: inputObservation.imageRect(imageSize: image.size))
            return inputObservation
        }
        let (box, confidence) = try tracker.update(with: image)
        return DetectedObjectObservation(
            id: inputObservation.id, boundingBox: box.converted(from: .pixels, to: .normalizedLowerLeft, imageSize: image.size),
            confidence: confidence, isLost: tracker.isLost)
    }
}
