import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// An analysis performed on one image, as Apple Vision's requests: configure it, then perform it
/// with an ``ImageRequestHandler`` (or a ``SequenceRequestHandler`` for video).
public protocol VisionRequest: Sendable {
    /// What the request produces for one image, such as an array of observations.
    associatedtype Result: Sendable
    /// Runs the request on `image`.
    func perform(on image: VisionImage) throws -> Result
}

/// A request that carries state from one video frame to the next (tracking).
public protocol SequenceVisionRequest: VisionRequest {
    /// What the request carries from one frame to the next, such as a tracker.
    associatedtype SequenceState: Sendable
    /// Requests with equal keys share their state inside one ``SequenceRequestHandler``.
    var sequenceKey: AnyHashable { get }
    /// The state before the first frame.
    func makeSequenceState() throws -> SequenceState
    /// Runs the request on the next frame, updating `state`.
    func perform(on image: VisionImage, state: inout SequenceState) throws -> Result
    /// Whether the handler should forget the state after this frame (Vision's `isLastFrame`).
    var endsSequence: Bool { get }
}

extension SequenceVisionRequest {
    /// False: the handler keeps the state for the next frame.
    public var endsSequence: Bool { false }
}
