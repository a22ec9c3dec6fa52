import NIOCore
import Synchronization

/// Who waits for each connection's client to leave: the requests in flight on it, each with the action
/// that stops its work. A connection's close is observed once, by its first request that waits, however
/// many requests the connection carries after it; a request that ends takes its action back.
///
/// Observing the close future once per request instead hops to the connection's event loop on every
/// request (a future's callbacks are added there) and keeps every request's callback, and all it holds,
/// until the connection closes.
final class ConnectionDepartures: Sendable {
    /// A request's place among those waiting on a connection, to take back with ``forget(_:)``.
    struct Ticket: Sendable {
        fileprivate let connection: ObjectIdentifier
        fileprivate let id: Int
    }

    private struct Waiters {
        /// Held until the connection closes, so that no other connection takes its identifier meanwhile.
        let channel: any Channel
        var actions: [Int: @Sendable () -> Void] = [:]
    }

    private struct State {
        var connections: [ObjectIdentifier: Waiters] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    /// Calls `action` once when `channel` closes (soon, if it has closed already), unless the ticket
    /// returned is forgotten first.
    func observe(_ channel: any Channel, _ action: @escaping @Sendable () -> Void) -> Ticket {
        let connection = ObjectIdentifier(channel)
        let (id, isFirst) = state.withLock { state -> (Int, Bool) in
            state.nextID += 1
            let isFirst = state.connections[connection] == nil
            if isFirst { state.connections[connection] = Waiters(channel: channel) }
            state.connections[connection]?.actions[state.nextID] = action
            return (state.nextID, isFirst)
        }
        if isFirst {
            channel.closeFuture.whenComplete { [self] _ in
                let actions = state.withLock { $0.connections.removeValue(forKey: connection)?.actions.values }
                actions?.forEach { $0() }
            }
        }
        return Ticket(connection: connection, id: id)
    }

    /// Takes back the action of `ticket`: its request has ended.
    func forget(_ ticket: Ticket) {
        state.withLock { _ = $0.connections[ticket.connection]?.actions.removeValue(forKey: ticket.id) }
    }
}
