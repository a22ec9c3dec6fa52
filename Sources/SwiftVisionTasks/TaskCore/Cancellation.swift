import Foundation
import Synchronization

/// A way to stop synchronous work from outside: a flag that a caller sets when its client leaves, and a
/// deadline after which the work counts as cancelled too. Engines look at the token of the work they run
/// on (``current``) between their steps — between tiles and passes, between frames, inside Tesseract's
/// recognition — and stop with ``VisionTaskError/cancelled`` once it is set.
///
/// Work without a token (the command line, the library's own calls) is never cancelled.
public final class CancellationToken: Sendable {
    private let flag = Atomic<Bool>(false)
    /// When the work counts as cancelled even if nobody cancels it; nil for none.
    public let deadline: ContinuousClock.Instant?

    /// A token that is cancelled by ``cancel()``, or once `deadline` has passed.
    public init(deadline: ContinuousClock.Instant? = nil) {
        self.deadline = deadline
    }

    /// Asks the work to stop at its next step.
    public func cancel() {
        flag.store(true, ordering: .relaxed)
    }

    /// Whether ``cancel()`` was called or the deadline has passed.
    public var isCancelled: Bool {
        if flag.load(ordering: .relaxed) { return true }
        guard let deadline else { return false }
        return ContinuousClock.now >= deadline
    }

    /// The token of the work running here, bound by ``run(_:)``.
    @TaskLocal public static var current: CancellationToken?

    /// Runs `work` with this token as ``current`` (on the calling thread, or in the calling task).
    public func run<Result>(_ work: () throws -> Result) rethrows -> Result {
        try Self.$current.withValue(self, operation: work)
    }

    /// Throws ``VisionTaskError/cancelled`` when the current work's token is cancelled.
    public static func checkpoint() throws {
        if let current, current.isCancelled { throw VisionTaskError.cancelled }
    }
}
