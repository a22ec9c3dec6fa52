import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// An analysis performed on one image, as Apple Vision's requests: configure it, then perform it
/// with an ``ImageRequestHandler`` (or a ``SequenceRequestHandler`` for video). The handler returns
/// its results, and hands them (or its error) to its ``completionHandler`` as well, as Vision's
/// `VNRequest` does.
public protocol VisionRequest: Sendable {
    /// What the request produces for one image, such as an array of observations.
    associatedtype Result: Sendable
    /// What a request's completion handler is called with: its results, or the error it failed with.
    typealias CompletionHandler = @Sendable (Swift.Result<Result, any Error>) -> Void
    /// Called with the request's results or error each time a handler performs it (Vision's
    /// `completionHandler`); nil for none.
    var completionHandler: CompletionHandler? { get set }
    /// Runs the request on `image`.
    func perform(on image: VisionImage) throws -> Result
}

extension VisionRequest {
    /// Hands `outcome`, the request's results or error, to its completion handler and returns it.
    func report(_ outcome: Swift.Result<Result, any Error>) -> Swift.Result<Result, any Error> {
        completionHandler?(outcome)
        return outcome
    }
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

/// A request that runs one task of the core: on an image it makes the task, in a
/// ``SequenceRequestHandler`` it keeps a `.video` runner of it, so that the task's stream state (face
/// tracks, the next frame's crops, mask smoothing) carries from frame to frame. A request supplies its
/// task options and turns the task's output into its results; everything else is shared.
public protocol TaskBackedRequest: SequenceVisionRequest where SequenceState == TaskRunner<Job> {
    /// The task the request runs.
    associatedtype Job: VisionTask
    /// The task's options for the request's current settings.
    var taskOptions: Job.Options { get }
    /// The request's results from the task's `output` for an image of `imageSize`.
    func results(from output: Job.Output, imageSize: CGSize) throws -> Result
}

extension TaskBackedRequest {
    /// The request's results for `image`.
    public func perform(on image: VisionImage) throws -> Result {
        try results(from: try Job(options: taskOptions).output(for: image), imageSize: image.size)
    }

    /// Requests whose task options are equal share a sequence.
    public var sequenceKey: AnyHashable { taskOptions }

    /// A runner of the task in video mode.
    public func makeSequenceState() throws -> TaskRunner<Job> {
        TaskRunner(task: try Job(options: taskOptions), runningMode: .video)
    }

    /// The request's results for the next frame of the sequence.
    public func perform(on image: VisionImage, state: inout TaskRunner<Job>) throws -> Result {
        try results(from: try state.run(videoFrame: image), imageSize: image.size)
    }
}
