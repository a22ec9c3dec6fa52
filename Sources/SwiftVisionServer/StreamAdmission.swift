import Foundation
import NIOCore
import Synchronization

/// The live streams a service lets open at once (`--max-streams`).
///
/// A stream's seat is taken before its `101 Switching Protocols` and held until its connection closes,
/// so that a client over the limit always gets the full house's `503` and never an upgrade that is
/// closed at once; `swiftvision_streams_open` counts the seats held.
final class StreamAdmission: Sendable {
    let limit: Int
    private let open = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// Whether another stream may open now: a cheap refusal before the request's options are read.
    /// ``seat(on:)`` decides.
    var hasRoom: Bool { open.load(ordering: .relaxed) < limit }

    /// The error of a full house.
    var full: APIError {
        var error = APIError(.serviceUnavailable, "too_many_streams", "the service has \(limit) live streams open; try again shortly")
        error.headers[.retryAfter] = "5"
        return error
    }

    /// Takes a seat for the stream about to open on `channel`, given back when the connection closes
    /// (whether or not the upgrade completes); throws ``full`` when every seat is taken.
    func seat(on channel: any Channel) throws {
        guard open.add(1, ordering: .relaxed).newValue <= limit else {
            open.subtract(1, ordering: .relaxed)
            throw full
        }
        ServerMetrics.streamOpened()
        channel.closeFuture.whenComplete { [self] _ in
            open.subtract(1, ordering: .relaxed)
            ServerMetrics.streamClosed()
        }
    }
}
