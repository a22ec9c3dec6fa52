import Foundation
import Synchronization

/// The live streams a service lets open at once (`--max-streams`).
final class StreamAdmission: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Streams open now.
    var count: Int { open.load(ordering: .relaxed) }

    /// Whether another stream may open now (checked before the upgrade; ``open()`` decides).
    var hasRoom: Bool { count < limit }

    /// The error of a full house.
    var full: APIError {
        var error = APIError(.serviceUnavailable, "too_many_streams", "the service has \(limit) live streams open; try again shortly")
        error.headers[.retryAfter] = "5"
        return error
    }

    /// The close frame's reason (after code 1013, "try again later") for a stream upgraded while the last
    /// seat was being taken: the error's code and message, ASCII and well within the 123 bytes a close
    /// frame's reason may have.
    var closeReason: String { "\(full.code): \(full.message)" }

    /// Counts a stream that opens; false (and nothing counted) when all seats are taken.
    func enter() -> Bool {
        guard open.add(1, ordering: .relaxed).newValue <= limit else {
            open.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    /// Counts a stream that closed.
    func leave() {
        open.subtract(1, ordering: .relaxed)
    }
}
