import Foundation

/// A value made on a thread of its own, started at once, so that making it overlaps the caller's work;
/// ``value`` waits for it. Safe to share: the value is made once and only read after that.
package final class Prefetched<Value>: @unchecked Sendable {
    /// Signalled once the value is stored; every reader signals it again for the next.
    private let made = DispatchSemaphore(value: 0)
    private var result: Value?

    /// Starts making the value with `make` on a new thread.
    package init(_ make: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            result = make()
            made.signal()
        }
        // C++ libraries such as Tesseract need more stack than a thread gets by default.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The value, once made; waits for the thread the first time.
    package var value: Value {
        made.wait()
        defer { made.signal() }
        return result!
    }
}
