import Dispatch
import Foundation
import NIOCore
import SwiftVision
import Synchronization

/// Admission and scheduling of the service's inferences. At most `limit` run at once, on `limit`
/// threads of their own (``InferenceThreads``), never on the threads that serve connections or on
/// Swift's cooperative pool;
/// requests are admitted *before* their bodies are read, up to `limit + queueLimit` at once, and a
/// request past that is refused at once (503 with `Retry-After`). Slots go to waiters in arrival order.
///
/// Each admitted request's work runs with a ``CancellationToken`` that its deadline, its client leaving
/// or the task awaiting it being cancelled (a shutdown) sets: a waiter that is cancelled never runs,
/// and a running engine stops at its next step.
final class RequestLimiter: Sendable {
    let limit: Int
    let queueLimit: Int

    private struct Waiter {
        let id: Int
        let grant: @Sendable () -> Void
    }

    private struct State {
        var running = 0
        /// Requests admitted and not yet finished or withdrawn: reading their body, waiting or running.
        var admitted = 0
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state = Mutex(State())
    private let threads: InferenceThreads
    private let timers = DispatchQueue(label: "SwiftVision.Server.deadlines")

    init(limit: Int, queueLimit: Int) {
        self.limit = max(1, limit)
        self.queueLimit = max(0, queueLimit)
        threads = InferenceThreads(count: self.limit, name: "SwiftVision inference")
    }

    /// Inferences running and waiting now.
    var load: (running: Int, waiting: Int) {
        state.withLock { ($0.running, $0.waiters.count) }
    }

    /// The error of a full service.
    var busy: APIError {
        var error = APIError(.serviceUnavailable, "busy", "the service is busy: \(limit) inferences run and \(queueLimit) wait")
        error.headers[.retryAfter] = "1"
        error.headers[.connection] = "close"
        return error
    }

    /// Admits one request, before its body is read, with a deadline `timeout` from now that covers reading
    /// the body, waiting and running; throws 503 when `limit + queueLimit` requests are already admitted.
    /// The admission ends when ``Admission/run(closing:_:)`` has finished, or when it is dropped unused.
    func admit(within timeout: Duration) throws -> Admission {
        let admitted = state.withLock { state -> Bool in
            guard state.admitted < limit + queueLimit else { return false }
            state.admitted += 1
            return true
        }
        guard admitted else { throw busy }
        return Admission(limiter: self, deadline: .now + timeout)
    }

    /// One admitted request.
    final class Admission: Sendable {
        let limiter: RequestLimiter
        /// When the request is answered 504 if it has not finished.
        let deadline: ContinuousClock.Instant
        private let used = Atomic<Bool>(false)

        init(limiter: RequestLimiter, deadline: ContinuousClock.Instant) {
            self.limiter = limiter
            self.deadline = deadline
        }

        deinit {
            if !used.load(ordering: .relaxed) { limiter.state.withLock { $0.admitted -= 1 } }
        }

        /// Runs `work` when a slot is free, with a token cancelled at the deadline, when `channel` closes
        /// (the client left) or when the calling task is cancelled. Returns as soon as any of these
        /// happens (throwing 504, or ``VisionTaskError/cancelled``); work already running keeps its slot
        /// until it reaches its next step and stops.
        func run<Result: Sendable>(
            closing channel: (any Channel)?, _ work: @escaping @Sendable () throws -> Result
        ) async throws -> Result {
            precondition(!used.exchange(true, ordering: .relaxed), "an admission runs once")
            return try await limiter.schedule(deadline: deadline, closing: channel, work)
        }
    }

    /// A one-shot answer: the first of completion, deadline and cancellation resumes the caller.
    private final class Answer<Result: Sendable>: Sendable {
        private let continuation = Mutex<CheckedContinuation<Result, any Error>?>(nil)

        func set(_ continuation: CheckedContinuation<Result, any Error>) {
            self.continuation.withLock { $0 = continuation }
        }

        func resume(with result: Swift.Result<Result, any Error>) {
            continuation.withLock { $0.take() }?.resume(with: result)
        }
    }

    private func schedule<Result: Sendable>(
        deadline: ContinuousClock.Instant, closing channel: (any Channel)?, _ work: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        let token = CancellationToken(deadline: deadline)
        let answer = Answer<Result>()
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        let stop: @Sendable (any Error) -> Void = { [self] error in
            token.cancel()
            // A request still waiting leaves the queue and never runs.
            state.withLock { state in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return }
                state.waiters.remove(at: index)
                state.admitted -= 1
            }
            answer.resume(with: .failure(error))
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                answer.set(continuation)
                let remaining = ContinuousClock.now.duration(to: deadline)
                // Stopping is idempotent: after the answer, the timer finds nothing to do.
                timers.asyncAfter(deadline: .now() + Self.dispatchInterval(remaining)) { stop(APIError.timedOut) }
                channel?.closeFuture.whenComplete { _ in stop(VisionTaskError.cancelled) }
                let start: @Sendable () -> Void = { [self] in
                    threads.run { [self] in
                        // The slot is given back before the answer goes, so that whoever holds the answer finds it free.
                        let result: Swift.Result<Result, any Error> =
                            token.isCancelled
                            ? .failure(ContinuousClock.now >= deadline ? APIError.timedOut : VisionTaskError.cancelled)
                            : Swift.Result { try token.run(work) }
                        finish()
                        answer.resume(with: result)
                    }
                }
                let startsNow = state.withLock { state -> Bool in
                    if state.running < limit {
                        state.running += 1
                        return true
                    }
                    state.waiters.append(Waiter(id: id, grant: start))
                    return false
                }
                if startsNow { start() }
            }
        } onCancel: {
            stop(VisionTaskError.cancelled)
        }
    }

    /// Ends one running inference: its slot passes straight to the first waiter, if any.
    private func finish() {
        let next = state.withLock { state -> Waiter? in
            state.admitted -= 1
            guard !state.waiters.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.grant()
    }

    /// Takes a slot for one live-stream frame, waiting on the calling thread (a stream's own queue)
    /// while all are busy; streams are bounded by `--max-streams`, so their waits are too. Pair with
    /// ``releaseFrameSlot()``.
    func takeFrameSlot() {
        let semaphore = DispatchSemaphore(value: 0)
        let startsNow = state.withLock { state -> Bool in
            state.admitted += 1
            if state.running < limit {
                state.running += 1
                return true
            }
            state.nextID += 1
            state.waiters.append(Waiter(id: state.nextID, grant: { semaphore.signal() }))
            return false
        }
        if !startsNow { semaphore.wait() }
    }

    /// Gives back a slot taken by ``takeFrameSlot()``.
    func releaseFrameSlot() {
        finish()
    }

    private static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return .nanoseconds(0) }
        return .nanoseconds(Int(min(seconds, 1_000_000)) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }
}
