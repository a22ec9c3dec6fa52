import Dispatch

/// Runs blocking, CPU-bound `work` on a global dispatch queue, so that the `async` entry points
/// of the tasks do not hold up Swift's cooperative thread pool.
func runDetached<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
            continuation.resume(with: Result { try work() })
        }
    }
}
