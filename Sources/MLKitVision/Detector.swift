import Dispatch
import Foundation
import SwiftVisionCore
import SwiftVisionTasks

/// What every ML Kit detector does around its task, written once (MediaPipe's `BaseVisionTaskApi` is the
/// model): the task is made with the detector, and a failure to make it waits for the first call, since
/// ML Kit's factories do not throw; single images or a stream; outputs returned or handed to a completion
/// on the callback queue; every error as ML Kit's `NSError` (``mlKitErrorDomain``); reset and close.
package final class Detector<Job: VisionTask>: Sendable {
    /// The runner, or the error that kept the task from being made.
    private let runner: Result<TaskRunner<Job>, NSError>
    /// Where completions are called.
    private let callbackQueue: DispatchQueue

    /// A detector of `makeTask()`'s task; with `stream`, successive images are frames of one stream
    /// (tracking, smoothing), and with `discardsLateFrames` a stream frame that arrives while another is
    /// processed fails with ``MLKitErrorCode/cancelled``.
    package init(
        stream: Bool, discardsLateFrames: Bool = false, callbackQueue: DispatchQueue, task makeTask: () throws -> Job
    ) {
        self.callbackQueue = callbackQueue
        runner = Result {
            TaskRunner(task: try makeTask(), runningMode: stream ? .video : .image, discardsLateFrames: stream && discardsLateFrames)
        }.mapError(NSError.mlKit)
    }

    /// The task, or the error that kept it from being made.
    package func task() throws -> Job {
        try runner.get().task
    }

    /// The output for `image`; in a stream, for its next frame, timed by its arrival.
    package func output(for image: VisionImage) throws -> Job.Output {
        let frame = image.taskImage
        return try reportingErrors { runner in
            runner.runningMode == .video ? try runner.run(videoFrame: frame) : try runner.run(frame)
        }
    }

    /// The output for the next frame of a video taken at `timestamp`; needs a stream.
    package func output(forVideoFrame image: VisionImage, timestampInMilliseconds timestamp: Int) throws -> Job.Output {
        let frame = image.taskImage
        return try reportingErrors { try $0.run(videoFrame: frame, timestampInMilliseconds: timestamp) }
    }

    /// Runs `work` with `self`'s runner off the caller's task, its errors as ML Kit's.
    package func offloading<Output: Sendable>(
        _ work: @escaping @Sendable (TaskRunner<Job>) throws -> Output
    ) async throws -> Output {
        do {
            return try await runner.get().offload(work)
        } catch {
            throw NSError.mlKit(error)
        }
    }

    /// The output for `image` computed off the caller's task; in a stream, its next frame.
    package func output(processing image: VisionImage) async throws -> Job.Output {
        let frame = image.taskImage
        do {
            return try await runner.get().process(frame)
        } catch {
            throw NSError.mlKit(error)
        }
    }

    /// Computes `image`'s output off the caller's thread and calls `completion` on the callback queue
    /// with `results(output)`, or with the error.
    package func process<Results: Sendable>(
        _ image: VisionImage, results: @escaping @Sendable (Job.Output) -> Results,
        completion: @escaping @Sendable (Results?, (any Error)?) -> Void
    ) {
        let frame = image.taskImage
        let (runner, queue) = (self.runner, callbackQueue)
        Task {
            let outcome: Result<Results, NSError>
            do {
                outcome = .success(results(try await runner.get().process(frame)))
            } catch {
                outcome = .failure(NSError.mlKit(error))
            }
            queue.async {
                switch outcome {
                case .success(let value): completion(value, nil)
                case .failure(let error): completion(nil, error)
                }
            }
        }
    }

    /// Forgets the stream's state; the next frame starts a new stream.
    package func reset() {
        if case .success(let runner) = runner { runner.reset() }
    }

    /// Ends the detector; later calls fail with ``MLKitErrorCode/failedPrecondition``.
    package func close() {
        if case .success(let runner) = runner { runner.close() }
    }

    /// Runs `work` with `self`'s runner on the caller's thread, its errors as ML Kit's.
    package func reportingErrors<Output>(_ work: (TaskRunner<Job>) throws -> Output) throws -> Output {
        do {
            return try work(try runner.get())
        } catch {
            throw NSError.mlKit(error)
        }
    }
}
