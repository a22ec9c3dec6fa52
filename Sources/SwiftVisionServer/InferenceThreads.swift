import Foundation
import Synchronization

/// A fixed set of threads that run the service's inferences, one job each at a time. Dedicated
/// threads keep inferences off the worker threads that Swift's cooperative pool runs on (as many as
/// cores on Linux: two long inferences there stall every other request, `/healthz` included), and a
/// fixed number keeps the process's threads — and the allocator arenas that come with each — bounded,
/// where a dispatch queue would start threads as it pleases. The threads end with the set.
final class InferenceThreads: Sendable {
    /// The jobs waiting, shared with the threads (which must not hold the set itself, or it never ends).
    private final class Jobs: Sendable {
        private let waiting = Mutex<[@Sendable () -> Void]>([])
        private let available = DispatchSemaphore(value: 0)

        func add(_ job: @escaping @Sendable () -> Void) {
            waiting.withLock { $0.append(job) }
            available.signal()
        }

        /// The next job, waiting for one; nil when woken with none (the set has ended).
        func next() -> (@Sendable () -> Void)? {
            available.wait()
            return waiting.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }

        /// Wakes every thread with no job, so that each ends.
        func end(threads: Int) {
            for _ in 0..<threads { available.signal() }
        }
    }

    private let jobs = Jobs()
    private let count: Int

    /// Starts `count` threads named `name`.
    init(count: Int, name: String) {
        self.count = max(1, count)
        for index in 0..<self.count {
            let jobs = jobs
            let thread = Thread {
                while let job = jobs.next() { job() }
            }
            thread.name = "\(name) \(index + 1)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    deinit {
        jobs.end(threads: count)
    }

    /// Runs `job` on the first free thread.
    func run(_ job: @escaping @Sendable () -> Void) {
        jobs.add(job)
    }
}
