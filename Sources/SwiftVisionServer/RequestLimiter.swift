import Foundation
import Synchronization

/// Lets at most `limit` inferences run at once and `queueLimit` more wait; a request past that is
/// refused at once (the service answers 503 with `Retry-After`). Inferences run on a dispatch queue
/// of their own, so that they never hold the threads that serve connections.
final class RequestLimiter: Sendable {
    let limit: Int
    let queueLimit: Int
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "SwiftVision.Server.inference", qos: .userInitiated, attributes: .concurrent)

    init(limit: Int, queueLimit: Int) {
        self.limit = max(1, limit)
        self.queueLimit = max(0, queueLimit)
    }

    /// Inferences running and waiting now.
    var load: (running: Int, waiting: Int) {
        state.withLock { ($0.running, $0.waiting.count) }
    }

    /// Runs `work` when a slot is free; throws 503 when the queue is full.
    func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await acquire()
        defer { release() }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Swift.Result { try work() }) }
        }
    }

    private func acquire() async throws {
        enum Admission { case now, wait, refuse }
        let admission = state.withLock { state -> Admission in
            if state.running < limit {
                state.running += 1
                return .now
            }
            return state.waiting.count < queueLimit ? .wait : .refuse
        }
        switch admission {
        case .now: return
        case .refuse:
            var error = APIError(.serviceUnavailable, "busy", "the service is busy: \(limit) inferences run and \(queueLimit) wait")
            error.headers[.retryAfter] = "1"
            throw error
        case .wait:
            await withCheckedContinuation { continuation in
                let admitted = state.withLock { state -> Bool in
                    // A slot may have freed since the check above.
                    if state.running < limit {
                        state.running += 1
                        return true
                    }
                    state.waiting.append(continuation)
                    return false
                }
                if admitted { continuation.resume() }
            }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            // The slot passes straight to the first waiting request.
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
