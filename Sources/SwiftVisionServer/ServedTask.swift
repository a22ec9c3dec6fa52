import Dispatch
import Foundation
import SwiftVision
import Synchronization

/// A task ready to serve, with its options fixed: its output as JSON for one image, or a live stream.
protocol ServedTask: Sendable {
    /// The task's name in the registry.
    var name: String { get }
    /// The output for `image` on its own, to encode with ``serviceEncoder``.
    func output(for image: VisionImage) throws -> any Encodable & Sendable
    /// A live stream of frames whose results go to `deliver`, in order, on the stream's own queue.
    func makeLiveStream(deliver: @escaping @Sendable (LiveFrame) -> Void) -> any LiveStream
}

/// The result of one live-stream frame, encoded.
struct LiveFrame: Sendable {
    /// The timestamp the frame was sent with.
    var timestampInMilliseconds: Int
    /// Frames dropped by flow limiting since the previous result.
    var droppedFrames: Int
    /// The output, or why the frame failed.
    var output: Result<any Encodable & Sendable, any Error>
}

/// A task's live stream: frames go in, results come out through the stream's delivery closure.
protocol LiveStream: Sendable {
    /// Sends the next frame, made by `image` when its turn comes; with no timestamp the arrival time is
    /// used. Returns the timestamp.
    func send(timestampInMilliseconds: Int?, image: @escaping @Sendable () throws -> VisionImage) throws -> Int
    /// Ends the stream.
    func close()
}

/// The service's JSON encoding: sorted keys, as the command line's.
let serviceEncoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
}()

/// A ``ServedTask`` over a task of type `Job`.
struct TypedServedTask<Job: VisionTask>: ServedTask {
    let task: Job

    var name: String { Job.descriptor.name }

    func output(for image: VisionImage) throws -> any Encodable & Sendable {
        try task.output(for: image)
    }

    func makeLiveStream(deliver: @escaping @Sendable (LiveFrame) -> Void) -> any LiveStream {
        TypedLiveStream(
            runner: TaskRunner(task: task, runningMode: .liveStream) { result in
                deliver(LiveFrame(
                    timestampInMilliseconds: result.timestampInMilliseconds, droppedFrames: result.droppedFrames,
                    output: result.result.map { $0 as any Encodable & Sendable }))
            })
    }
}

struct TypedLiveStream<Job: VisionTask>: LiveStream {
    let runner: TaskRunner<Job>

    func send(timestampInMilliseconds timestamp: Int?, image: @escaping @Sendable () throws -> VisionImage) throws -> Int {
        guard let timestamp else { return try runner.send(image: image) }
        try runner.send(timestampInMilliseconds: timestamp, image: image)
        return timestamp
    }

    func close() {
        runner.close()
    }
}

/// The tasks the service has made, one per (task, options), kept for reuse; models come from the
/// process's ``ModelStore``, so each is loaded once whatever the options.
final class TaskCatalog: Sendable {
    let registry: TaskRegistry
    let threads: Int?
    private let made = Mutex<[String: any ServedTask]>([:])
    /// Sets of options kept; past that the oldest are forgotten (their models stay in the store).
    private let capacity = 64

    init(registry: TaskRegistry = .standard, threads: Int?) {
        self.registry = registry
        self.threads = threads
    }

    /// Where tasks are made, one at a time on a thread of its own: making one may load models or start
    /// Tesseract, which must never block Swift's cooperative threads (they also serve `/healthz`); a task
    /// made once is found in a dictionary.
    private let setup = DispatchQueue(label: "SwiftVision.Server.setup", qos: .userInitiated)

    /// The tasks served for a task name and query as sent (no overrides), so that a request asking
    /// again for one already made neither decodes its options nor leaves its thread.
    private let byQuery = Mutex<[String: any ServedTask]>([:])

    /// The task `name` with options from `query` and `overrides`, made off the cooperative threads.
    func task(named name: String, query: [(String, String)], overrides: [String: JSONValue] = [:]) async throws -> any ServedTask {
        guard let entry = registry.entry(named: name) else { throw APIError.unknownTask(name) }
        // Each part with its length first, so that no two queries make one key.
        let asSent = overrides.isEmpty
            ? ([name] + query.filter { $0.0 != "token" }.flatMap { [$0.0, $0.1] }).map { "\($0.utf8.count):\($0)" }.joined() : nil
        if let asSent, let found = byQuery.withLock({ $0[asSent] }) { return found }
        let task = try await withCheckedThrowingContinuation { continuation in
            setup.async { [self] in
                continuation.resume(with: Result {
                    try served(entry.type, defaults: entry.defaultOptions, query: query, overrides: overrides)
                })
            }
        }
        if let asSent {
            byQuery.withLock { byQuery in
                if byQuery.count >= capacity { byQuery.removeAll() }
                byQuery[asSent] = task
            }
        }
        return task
    }

    private func served<Job: VisionTask>(
        _ type: Job.Type, defaults: Data, query: [(String, String)], overrides: [String: JSONValue]
    ) throws -> any ServedTask {
        let options = try OptionDecoding.options(
            for: type, defaults: defaults, query: query, overrides: overrides, threads: threads)
        let key = Job.descriptor.name + String(decoding: try serviceEncoder.encode(options), as: UTF8.self)
        if let found = made.withLock({ $0[key] }) { return found }
        let task: TypedServedTask<Job>
        do {
            task = TypedServedTask(task: try Job(options: options))
        } catch let error as VisionTaskError {
            // A range check names the option at fault by its key: name it as the client did.
            guard case .invalidOption = error else { throw error }
            throw APIError.badOption(error.description(namingOption: { OptionDecoding.name(of: $0, query: query, overrides: overrides) }))
        }
        made.withLock { made in
            if made.count >= capacity { made.removeAll() }
            made[key] = task
        }
        return task
    }
}
