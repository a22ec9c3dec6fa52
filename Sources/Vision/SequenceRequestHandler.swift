import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Performs requests on the frames of a video in order, keeping each request's state (tracked faces,
/// tracked objects) between frames, as Vision's `SequenceRequestHandler`. Safe to share; frames are
/// processed one at a time.
public final class SequenceRequestHandler: @unchecked Sendable {
    /// Read and written only while `lock` is held.
    private var states: [AnyHashable: any Sendable] = [:]
    private let lock = NSLock()

    /// A handler with no sequence started.
    public init() {}

    /// Performs a stateless `request` on `frame`; its completion handler gets the outcome.
    public func perform<Request: VisionRequest>(_ request: Request, on frame: VisionImage) throws -> Request.Result {
        try request.report(Result { try request.perform(on: frame) }).get()
    }

    /// Performs `request` on the next `frame`, continuing its sequence; its completion handler gets the
    /// outcome, after the handler has let go of its lock.
    public func perform<Request: SequenceVisionRequest>(_ request: Request, on frame: VisionImage) throws -> Request.Result {
        let outcome = lock.withLock {
            Result {
                var state = try (states[request.sequenceKey] as? Request.SequenceState) ?? request.makeSequenceState()
                let result = try request.perform(on: frame, state: &state)
                states[request.sequenceKey] = request.endsSequence ? nil : state
                return result
            }
        }
        return try request.report(outcome).get()
    }

    /// Forgets the state of requests with `key`, or of all requests.
    public func reset(_ key: AnyHashable? = nil) {
        lock.withLock {
            if let key { states[key] = nil } else { states.removeAll() }
        }
    }
}
