import Dispatch
import Foundation
import NIOCore
import SwiftVision
import Synchronization

/// Admission and scheduling of the service's inferences. At most `limit` run at once, on `limit`
/// threads of their own (``InferenceThreads``), never on the threads that serve connections or on
/// Swift's cooperative pool;
/// requests are admitted *before* their bodies are read, up to `limit + queueLimit` at once, and a
/// request past that is refused at once (503 with `Retry-After`), so no wait grows past `queueLimit`
/// inferences. Admission and slots are fair between clients (a client is the address a request came
/// from): free slots go to the clients with waiters in turn (round robin), not in arrival order, and
/// when the queue is full a newcomer whose client holds fewer admissions than the busiest client takes
/// the place of that client's latest waiter, which is answered 503. One client flooding the service
/// so fills only its own share, and another's request waits at most one turn of each client.
///
/// Decoding and encoding never hold an inference slot; a large image decodes on threads of their own
/// (``offload(_:)``).
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
        /// Answers the waiter 503 when a lighter client takes its place; it never runs.
        let refuse: @Sendable () -> Void
    }

    private struct State {
        var running = 0
        /// Requests admitted and not yet finished or withdrawn: reading their body, waiting or running.
        var admitted = 0
        /// The admissions of each client.
        var admittedByClient: [String: Int] = [:]
        /// Each client's waiters, in its arrival order.
        var waiting: [String: [Waiter]] = [:]
        /// The clients with waiters, in the order their turns come.
        var turns: [String] = []
        var nextID = 0

        var waiterCount: Int { waiting.values.reduce(0) { $0 + $1.count } }

        mutating func count(_ client: String, by change: Int) {
            let count = admittedByClient[client, default: 0] + change
            admittedByClient[client] = count > 0 ? count : nil
        }

        mutating func enqueue(_ waiter: Waiter, for client: String) {
            if waiting[client] == nil { turns.append(client) }
            waiting[client, default: []].append(waiter)
        }

        /// Takes `client`'s waiter `id` (or its latest) out of the queue.
        mutating func remove(_ id: Int? = nil, of client: String) -> Waiter? {
            guard var queue = waiting[client], let index = id.map({ id in queue.firstIndex { $0.id == id } }) ?? queue.indices.last
            else { return nil }
            let waiter = queue.remove(at: index)
            if queue.isEmpty {
                waiting[client] = nil
                turns.removeAll { $0 == client }
            } else {
                waiting[client] = queue
            }
            return waiter
        }

        /// The first waiter of the client whose turn it is; that client's next turn comes after the others'.
        mutating func next() -> Waiter? {
            guard !turns.isEmpty else { return nil }
            let client = turns.removeFirst()
            var queue = waiting[client] ?? []
            let waiter = queue.removeFirst()
            if queue.isEmpty {
                waiting[client] = nil
            } else {
                waiting[client] = queue
                turns.append(client)
            }
            return waiter
        }
    }

    private let state = Mutex(State())
    private let threads: InferenceThreads
    /// Where large images are decoded, beside the inferences.
    private let sideThreads: InferenceThreads
    /// The admitted requests' deadlines, withdrawn as each is answered.
    private let deadlines = Deadlines(name: "SwiftVision deadlines")
    /// The requests waiting on each connection, stopped when its client leaves.
    private let departures = ConnectionDepartures()

    init(limit: Int, queueLimit: Int) {
        self.limit = max(1, limit)
        self.queueLimit = max(0, queueLimit)
        threads = InferenceThreads(count: self.limit, name: "SwiftVision inference")
        sideThreads = InferenceThreads(count: self.limit, name: "SwiftVision decode")
    }

    /// Inferences running and waiting now.
    var load: (running: Int, waiting: Int) {
        state.withLock { ($0.running, $0.waiterCount) }
    }

    /// Runs `work` on a decoding thread, outside the inference slots, and returns its result.
    func offload<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            sideThreads.run { continuation.resume(with: Swift.Result { try work() }) }
        }
    }

    /// The error of a full service.
    var busy: APIError {
        var error = APIError(.serviceUnavailable, "busy", "the service is busy: \(limit) inferences run and \(queueLimit) wait")
        error.headers[.retryAfter] = "1"
        error.headers[.connection] = "close"
        return error
    }

    /// Admits one request that came on `channel`, before its body is read, with a deadline `timeout` from
    /// now that covers reading the body, waiting and running. When `limit + queueLimit` requests are
    /// already admitted, it takes the place of the latest waiter of the client holding the most admissions
    /// if that client holds at least two more than this one's, and throws 503 otherwise.
    /// The admission ends when ``Admission/run(closing:_:)`` has finished, or when it is dropped unused.
    func admit(within timeout: Duration, client: String = "") throws -> Admission {
        let (admitted, displaced) = state.withLock { state -> (Bool, Waiter?) in
            if state.admitted < limit + queueLimit {
                state.admitted += 1
                state.count(client, by: 1)
                return (true, nil)
            }
            let own = state.admittedByClient[client, default: 0]
            guard
                let busiest = state.waiting.keys.filter({ $0 != Self.streamClient }).max(by: { state.admittedByClient[$0, default: 0] < state.admittedByClient[$1, default: 0] }),
                state.admittedByClient[busiest, default: 0] > own + 1, let waiter = state.remove(of: busiest)
            else { return (false, nil) }
            state.count(busiest, by: -1)
            state.count(client, by: 1)
            return (true, waiter)
        }
        displaced?.refuse()
        guard admitted else { throw busy }
        return Admission(limiter: self, client: client, deadline: .now + timeout)
    }

    /// One admitted request.
    final class Admission: Sendable {
        let limiter: RequestLimiter
        /// Whose request it is (``ServiceRequestContext/client``).
        let client: String
        /// When the request is answered 504 if it has not finished.
        let deadline: ContinuousClock.Instant
        private let used = Atomic<Bool>(false)

        init(limiter: RequestLimiter, client: String, deadline: ContinuousClock.Instant) {
            self.limiter = limiter
            self.client = client
            self.deadline = deadline
        }

        deinit {
            if !used.load(ordering: .relaxed) {
                limiter.state.withLock { state in
                    state.admitted -= 1
                    state.count(client, by: -1)
                }
            }
        }

        /// Runs `work` when a slot is free, with a token cancelled at the deadline, when `channel` closes
        /// (the client left) or when the calling task is cancelled. Returns as soon as any of these
        /// happens (throwing 504, or ``VisionTaskError/cancelled``); work already running keeps its slot
        /// until it reaches its next step and stops.
        func run<Result: Sendable>(
            closing channel: (any Channel)?, _ work: @escaping @Sendable () throws -> Result
        ) async throws -> Result {
            precondition(!used.exchange(true, ordering: .relaxed), "an admission runs once")
            return try await limiter.schedule(client: client, deadline: deadline, closing: channel, work)
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
        client: String, deadline: ContinuousClock.Instant, closing channel: (any Channel)?, _ work: @escaping @Sendable () throws -> Result
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
                guard state.remove(id, of: client) != nil else { return }
                state.admitted -= 1
                state.count(client, by: -1)
            }
            answer.resume(with: .failure(error))
        }
        // Stopping is idempotent, but once the answer has come neither the deadline nor the client's
        // leaving has anything left to stop: both are withdrawn.
        var deadlineTicket: Deadlines.Ticket?
        var departureTicket: ConnectionDepartures.Ticket?
        defer {
            if let deadlineTicket { deadlines.withdraw(deadlineTicket) }
            if let departureTicket { departures.forget(departureTicket) }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                answer.set(continuation)
                deadlineTicket = deadlines.add(at: deadline) { stop(APIError.timedOut) }
                departureTicket = channel.map { departures.observe($0) { stop(VisionTaskError.cancelled) } }
                let start: @Sendable () -> Void = { [self] in
                    threads.run { [self] in
                        // The slot is given back before the answer goes, so that whoever holds the answer finds it free.
                        let result: Swift.Result<Result, any Error> =
                            token.isCancelled
                            ? .failure(ContinuousClock.now >= deadline ? APIError.timedOut : VisionTaskError.cancelled)
                            : Swift.Result { try token.run(work) }
                        finish(client)
                        answer.resume(with: result)
                    }
                }
                let startsNow = state.withLock { state -> Bool in
                    if state.running < limit {
                        state.running += 1
                        return true
                    }
                    state.enqueue(
                        Waiter(id: id, grant: start) {
                            token.cancel()
                            answer.resume(with: .failure(self.busy))
                        }, for: client)
                    return false
                }
                if startsNow { start() }
            }
        } onCancel: {
            stop(VisionTaskError.cancelled)
        }
    }

    /// Ends one running inference of `client`: its slot passes straight to the waiter whose turn it is, if any.
    private func finish(_ client: String) {
        let next = state.withLock { state -> Waiter? in
            state.admitted -= 1
            state.count(client, by: -1)
            guard let next = state.next() else {
                state.running -= 1
                return nil
            }
            return next
        }
        next?.grant()
    }

    /// The client that live-stream frames count as: streams take their turns beside the requests' clients.
    static let streamClient = "live streams"

    /// Takes a slot for one live-stream frame, waiting on the calling thread (a stream's own queue)
    /// while all are busy; streams are bounded by `--max-streams`, so their waits are too. Pair with
    /// ``releaseFrameSlot()``.
    func takeFrameSlot() {
        let semaphore = DispatchSemaphore(value: 0)
        let startsNow = state.withLock { state -> Bool in
            state.admitted += 1
            state.count(Self.streamClient, by: 1)
            if state.running < limit {
                state.running += 1
                return true
            }
            state.nextID += 1
            // A frame is never displaced: streams are bounded by `--max-streams` instead.
            state.enqueue(Waiter(id: state.nextID, grant: { semaphore.signal() }, refuse: {}), for: Self.streamClient)
            return false
        }
        if !startsNow { semaphore.wait() }
    }

    /// Gives back a slot taken by ``takeFrameSlot()``.
    func releaseFrameSlot() {
        finish(Self.streamClient)
    }
}
