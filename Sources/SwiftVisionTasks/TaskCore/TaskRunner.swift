import Dispatch
import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import Synchronization

/// The result of one live-stream frame.
public struct LiveStreamResult<Output: Sendable>: Sendable {
    /// The timestamp the frame was sent with.
    public var timestampInMilliseconds: Int
    /// The output, or the error that stopped the frame.
    public var result: Result<Output, any Error>
    /// Frames dropped by flow limiting since the previous result.
    public var droppedFrames: Int
}

/// Runs a ``VisionTask`` in one ``RunningMode``: the one place that checks running modes and
/// increasing timestamps, keeps the state of a stream, limits the flow of a live stream, runs work
/// off the caller's task and closes.
///
/// - `.image`: ``run(_:)`` computes each image on its own; calls may run in parallel.
/// - `.video`: ``run(videoFrame:timestampInMilliseconds:)`` computes frames in order, with increasing
///   timestamps, carrying the stream's state (tracks) from frame to frame.
/// - `.liveStream`: ``send(_:timestampInMilliseconds:)`` returns at once. As MediaPipe's flow limiter
///   (one frame in flight), one frame is processed at a time; unlike it, the newest frame that arrives
///   meanwhile waits and goes next, so the model never idles between frames (older waiting frames are
///   dropped and counted). Results arrive in order through the result handler and ``liveStreamResults``.
///
/// Safe to share between threads.
public final class TaskRunner<Job: VisionTask>: Sendable {
    /// The task being run.
    public let task: Job
    /// How frames arrive.
    public let runningMode: RunningMode
    /// Whether ``process(_:)`` refuses a frame that arrives while another is processed, instead of
    /// queueing it (as `AVCaptureVideoDataOutput.alwaysDiscardsLateVideoFrames`).
    public let discardsLateFrames: Bool

    /// The stream's timestamps and whether the runner is closed: held only for a moment, never while
    /// a frame is computed, so that sending a live frame never waits for the frame in flight.
    private struct Timing {
        var lastTimestamp: Int?
        var isClosed = false
    }

    private struct Live {
        var isProcessing = false
        var waiting: (image: @Sendable () throws -> VisionImage, timestamp: Int)?
        var dropped = 0
        var continuation: AsyncStream<LiveStreamResult<Job.Output>>.Continuation?
    }

    private let timing = Mutex(Timing())
    /// The stream's state (tracks), held while a frame is computed, so that frames run one at a time.
    /// Taken before ``timing`` when both are needed.
    private let state = Mutex<Job.StreamState?>(nil)
    private let live = Mutex(Live())
    private let busy = Atomic<Bool>(false)
    private let started = ContinuousClock.now
    private let resultHandler: (@Sendable (LiveStreamResult<Job.Output>) -> Void)?
    private let queue = DispatchQueue(label: "SwiftVision.TaskRunner.liveStream", qos: .userInitiated)

    /// Runs `task` in `runningMode`. In `.liveStream` mode `resultHandler` receives each result, in
    /// order, on the runner's own queue.
    public init(
        task: Job, runningMode: RunningMode = .image, discardsLateFrames: Bool = false,
        resultHandler: (@Sendable (LiveStreamResult<Job.Output>) -> Void)? = nil
    ) {
        self.task = task
        self.runningMode = runningMode
        self.discardsLateFrames = discardsLateFrames
        self.resultHandler = resultHandler
    }

    /// Makes the task with `options` (models from `store`) and runs it in `runningMode`.
    public convenience init(
        options: Job.Options = Job.defaultOptions, runningMode: RunningMode = .image, store: ModelStore = .shared,
        resultHandler: (@Sendable (LiveStreamResult<Job.Output>) -> Void)? = nil
    ) throws {
        self.init(task: try Job(options: options, store: store), runningMode: runningMode, resultHandler: resultHandler)
    }

    deinit {
        live.withLock { $0.continuation?.finish() }
    }

    // MARK: Image

    /// The output for one image, in `.image` mode.
    public func run(_ image: VisionImage) throws -> Job.Output {
        try require(.image)
        try timing.withLock { if $0.isClosed { throw VisionTaskError.closed } }
        return try task.output(for: image)
    }

    // MARK: Video

    /// The output for the next frame of a video, in `.video` mode; timestamps must increase.
    public func run(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> Job.Output {
        try require(.video)
        return try state.withLock { state in
            try timing.withLock { try Self.advance(&$0, to: timestamp) }
            return try next(image, state: &state)
        }
    }

    /// The output for the next frame of a video, in `.video` mode, timed by its arrival (as ML Kit's
    /// stream mode, whose frames carry no timestamps).
    public func run(videoFrame image: VisionImage) throws -> Job.Output {
        try require(.video)
        return try state.withLock { state in
            try timing.withLock { try Self.advance(&$0, to: max(arrivalTime(), ($0.lastTimestamp ?? -1) + 1)) }
            return try next(image, state: &state)
        }
    }

    // MARK: Live stream

    /// Sends the next frame of a live stream, in `.liveStream` mode, and returns at once; timestamps
    /// must increase. There may be no result for a frame that flow limiting drops.
    public func send(_ image: VisionImage, timestampInMilliseconds timestamp: Int) throws {
        try send(timestampInMilliseconds: timestamp) { image }
    }

    /// Sends the next frame of a live stream as `image`, which makes the frame's image when its turn
    /// comes (decoding it, say): a frame that flow limiting drops is never made. A failure of `image`
    /// is that frame's result.
    public func send(timestampInMilliseconds timestamp: Int, image: @escaping @Sendable () throws -> VisionImage) throws {
        try require(.liveStream)
        try timing.withLock { try Self.advance(&$0, to: timestamp) }
        let starts = live.withLock { live in
            guard !live.isProcessing else {
                if live.waiting != nil { live.dropped += 1 }
                live.waiting = (image, timestamp)
                return false
            }
            live.isProcessing = true
            return true
        }
        if starts { queue.async { [self] in processLiveFrames(first: (image, timestamp)) } }
    }

    /// Sends the next frame of a live stream timed by its arrival; returns the timestamp it was given.
    @discardableResult
    public func send(_ image: VisionImage) throws -> Int {
        try send { image }
    }

    /// Sends the next frame of a live stream, made when its turn comes, timed by its arrival; returns
    /// the timestamp it was given.
    @discardableResult
    public func send(image: @escaping @Sendable () throws -> VisionImage) throws -> Int {
        let timestamp = timing.withLock { max(arrivalTime(), ($0.lastTimestamp ?? -1) + 1) }
        try send(timestampInMilliseconds: timestamp, image: image)
        return timestamp
    }

    /// The live-stream results in timestamp order, for those who prefer a sequence to a handler.
    /// Each read starts a new sequence, holding the results from then on, and ends the previous one.
    public var liveStreamResults: AsyncStream<LiveStreamResult<Job.Output>> {
        let (results, continuation) = AsyncStream<LiveStreamResult<Job.Output>>.makeStream()
        live.withLock { live in
            live.continuation?.finish()
            live.continuation = continuation
        }
        return results
    }

    /// Processes `first`, then each frame left waiting, until none is.
    private func processLiveFrames(first: (image: @Sendable () throws -> VisionImage, timestamp: Int)) {
        var frame: (image: @Sendable () throws -> VisionImage, timestamp: Int)? = first
        while let (makeImage, timestamp) = frame {
            let outcome = Result {
                let image = try makeImage()
                return try state.withLock { try next(image, state: &$0) }
            }
            let (result, continuation): (LiveStreamResult<Job.Output>, AsyncStream<LiveStreamResult<Job.Output>>.Continuation?) =
                live.withLock { live in
                    let result = LiveStreamResult(timestampInMilliseconds: timestamp, result: outcome, droppedFrames: live.dropped)
                    live.dropped = 0
                    return (result, live.continuation)
                }
            resultHandler?(result)
            continuation?.yield(result)
            frame = live.withLock { live in
                let waiting = live.waiting.take()
                live.isProcessing = waiting != nil
                return waiting
            }
        }
    }

    // MARK: Any mode

    /// The output for `image` computed off the caller's task: as ``run(_:)`` in `.image` mode, as the
    /// next frame timed by its arrival in `.video` mode. With ``discardsLateFrames``, a call made while
    /// another runs fails at once with ``VisionTaskError/frameDropped``.
    public func process(_ image: VisionImage) async throws -> Job.Output {
        if discardsLateFrames {
            guard busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
                throw VisionTaskError.frameDropped
            }
        }
        defer { if discardsLateFrames { busy.store(false, ordering: .releasing) } }
        let mode = runningMode
        return try await offload { runner in
            switch mode {
            case .image: try runner.run(image)
            case .video: try runner.run(videoFrame: image)
            case .liveStream: throw VisionTaskError.runningModeMismatch(required: .video, current: mode)
            }
        }
    }

    /// Runs `work` with this runner off the caller's task.
    public func offload<Result: Sendable>(_ work: @escaping @Sendable (TaskRunner) throws -> Result) async throws -> Result {
        try await offloaded { [self] in try work(self) }
    }

    /// Forgets the stream's state and timestamps; the next frame starts a new stream. Waits for a frame
    /// being computed.
    public func reset() {
        state.withLock { state in
            state = nil
            timing.withLock { $0.lastTimestamp = nil }
        }
    }

    /// Ends the runner at once, without waiting for a frame being computed: later calls fail with
    /// ``VisionTaskError/closed``; a waiting live frame is dropped, and the live results end once the
    /// frame in flight is done. The stream's state goes with that frame, or with the runner.
    public func close() {
        timing.withLock { $0.isClosed = true }
        live.withLock { live in
            live.waiting = nil
            live.continuation?.finish()
            live.continuation = nil
        }
    }

    // MARK: Rules

    private func require(_ mode: RunningMode) throws {
        guard runningMode == mode else { throw VisionTaskError.runningModeMismatch(required: mode, current: runningMode) }
    }

    /// The one timestamp rule: a stream's timestamps increase strictly.
    private static func advance(_ timing: inout Timing, to timestamp: Int) throws {
        if timing.isClosed { throw VisionTaskError.closed }
        if let previous = timing.lastTimestamp, timestamp <= previous {
            throw VisionTaskError.nonIncreasingTimestamp(previous: previous, current: timestamp)
        }
        timing.lastTimestamp = timestamp
    }

    /// The next frame's output, with `state` (held under its lock) carried on; a closed runner's state
    /// is let go.
    private func next(_ image: VisionImage, state: inout Job.StreamState?) throws -> Job.Output {
        guard !timing.withLock({ $0.isClosed }) else {
            state = nil
            throw VisionTaskError.closed
        }
        try CancellationToken.checkpoint()
        var current = try state ?? task.makeStreamState()
        defer { state = timing.withLock { $0.isClosed } ? nil : current }
        return try task.output(forFrame: image, state: &current)
    }

    /// Milliseconds since the runner was made.
    private func arrivalTime() -> Int {
        (ContinuousClock.now - started).wholeMilliseconds
    }
}

/// Runs `work` off the caller's task, at user-initiated priority: the one async wrapper of SwiftVision.
package func offloaded<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await Task.detached(priority: .userInitiated) { try work() }.value
}
