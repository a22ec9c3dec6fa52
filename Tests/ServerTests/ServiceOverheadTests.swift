import Foundation
import Synchronization
import Testing

@testable import SwiftVisionServer

@Suite struct ServiceOverheadTests {
    /// The thread sleeps until the earliest deadline it knows: one added later but due sooner must wake
    /// it, a withdrawn one must never run, and the rest run in the order they fall due.
    @Test func deadlinesRunInOrderAndWithdrawnOnesNever() async throws {
        let deadlines = Deadlines(name: "test deadlines")
        let ran = Mutex<[Int]>([])
        let clock = ContinuousClock()
        let start = clock.now
        // Far enough off that no wait for the two below, however long a loaded machine makes it, reaches it.
        let late = deadlines.add(at: start + .seconds(3600)) { ran.withLock { $0.append(3_600_000) } }
        let withdrawn = deadlines.add(at: start + .milliseconds(100)) { ran.withLock { $0.append(100) } }
        _ = deadlines.add(at: start + .milliseconds(300)) { ran.withLock { $0.append(300) } }
        _ = deadlines.add(at: start + .milliseconds(200)) { ran.withLock { $0.append(200) } }
        deadlines.withdraw(withdrawn)
        while ran.withLock({ $0.count }) < 2, clock.now < start + .seconds(20) {
            try await Task.sleep(for: .milliseconds(10))
        }
        deadlines.withdraw(late)
        #expect(ran.withLock { $0 } == [200, 300])
    }

    /// The Server-Timing and access-log figures, written without Foundation's formatter, read as
    /// `String(format:)` wrote them.
    @Test func millisecondsAreWrittenAsPrintfWritesThem() {
        for nanoseconds: Int64 in [0, 499, 500_000, 1_234_567, 9_999_999, 12_345_678_901] {
            let duration = Duration.nanoseconds(nanoseconds)
            #expect(duration.milliseconds(decimals: 3) == String(format: "%.3f", Double(nanoseconds) / 1e6))
            #expect(duration.milliseconds(decimals: 2) == String(format: "%.2f", Double(nanoseconds) / 1e6))
        }
    }
}
