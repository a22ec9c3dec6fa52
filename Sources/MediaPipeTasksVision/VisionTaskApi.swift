import Foundation
import SwiftVisionCore
import SwiftVisionTasks

/// The base of every MediaPipe task class here, as MediaPipe's `BaseVisionTaskApi` is of its tasks: it
/// runs one task of the core in the options' running mode, turns each output into the class's result
/// type, and hands live-stream results (or errors) to the class's delegate call, in timestamp order. Every
/// error it throws or delivers is MediaPipe's `NSError` (``MPPTasksErrorDomain``, ``TasksErrorCode``).
final class VisionTaskApi<Job: VisionTask, TaskResult: Sendable>: Sendable {
    /// What a live stream hands to its delegate: the frame's result or error, and its timestamp.
    typealias Delivery = @Sendable (TaskResult?, Int, (any Error)?) -> Void

    private let runner: TaskRunner<Job>
    private let result: @Sendable (Job.Output, Int) -> TaskResult

    /// Makes `task` and a runner of it in `runningMode`; `deliver`, set when the class has a live-stream
    /// delegate, is refused outside `.liveStream`, as MediaPipe refuses such a delegate (invalid argument).
    init(
        task: () throws -> Job, runningMode: RunningMode, result: @escaping @Sendable (Job.Output, Int) -> TaskResult,
        deliver: Delivery?
    ) throws {
        if runningMode != .liveStream, deliver != nil {
            throw NSError.mediaPipe(
                VisionTaskError.invalidOption("the task is in image or video mode; a live-stream delegate should not be provided"))
        }
        let handler = deliver.map { deliver in
            { @Sendable (live: LiveStreamResult<Job.Output>) in
                let timestamp = live.timestampInMilliseconds
                switch live.result {
                case .success(let output): deliver(result(output, timestamp), timestamp, nil)
                case .failure(let error): deliver(nil, timestamp, NSError.mediaPipe(error))
                }
            }
        }
        runner = TaskRunner(task: try Self.reporting(task), runningMode: runningMode, resultHandler: handler)
        self.result = result
    }

    /// What `body` returns, or its error as MediaPipe reports it (``NSError/mediaPipe(_:)``): the one way
    /// every call of a task class reaches the task.
    static func reporting<Value>(_ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch {
            throw NSError.mediaPipe(error)
        }
    }

    /// The delivery that calls `delegate` (a class's live-stream delegate, held weakly) with the class made
    /// after it, `owner`, through `call`; nil without a delegate. The delegate bridge of every class.
    static func delivery<Owner: AnyObject, Delegate>(
        to delegate: Delegate?, of owner: WeakReference<Owner>,
        _ call: @escaping @Sendable (Delegate, Owner, TaskResult?, Int, (any Error)?) -> Void
    ) -> Delivery? {
        guard let delegate else { return nil }
        let held = WeakReference<AnyObject>()
        held.object = delegate as AnyObject
        return { result, timestamp, error in
            guard let delegate = held.object as? Delegate, let owner = owner.object else { return }
            call(delegate, owner, result, timestamp, error)
        }
    }

    /// The task the runner runs.
    var task: Job { runner.task }

    /// The result for one image, in `.image` mode.
    func run(_ image: VisionImage) throws -> TaskResult {
        result(try Self.reporting { try runner.run(image) }, 0)
    }

    /// The result for the next frame of a video, in `.video` mode; timestamps must increase.
    func run(videoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> TaskResult {
        result(try Self.reporting { try runner.run(videoFrame: image, timestampInMilliseconds: timestamp) }, timestamp)
    }

    /// Sends the next frame of a live stream, in `.liveStream` mode, and returns at once.
    func send(_ image: VisionImage, timestampInMilliseconds timestamp: Int) throws {
        try Self.reporting { try runner.send(image, timestampInMilliseconds: timestamp) }
    }

    /// The live-stream results in timestamp order, from now on; a new read ends the previous sequence.
    var liveStreamResults: AsyncStream<Result<TaskResult, any Error>> {
        let live = runner.liveStreamResults
        let result = result
        return AsyncStream { continuation in
            let forwarding = Task {
                for await frame in live {
                    continuation.yield(
                        frame.result.map { result($0, frame.timestampInMilliseconds) }.mapError { NSError.mediaPipe($0) as any Error })
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarding.cancel() }
        }
    }

    /// Ends the task; later calls fail with ``TasksErrorCode/invalidArgumentError``, as in MediaPipe.
    func close() {
        runner.close()
    }
}
