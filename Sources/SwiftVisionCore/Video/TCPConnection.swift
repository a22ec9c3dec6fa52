import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection made and used within time-outs, for the short exchanges a video source needs besides
/// FFmpeg's own: the diagnosis of a stream that does not open, and the byte ranges of a served MP4's index.
/// Every wait is bounded, the host name's lookup included; nothing is read beyond the count asked for.
final class TCPConnection {
    /// Why a connection could not be made.
    enum Failure: Error {
        /// The host name is not found.
        case unknownHost
        /// The host name was not looked up within the time-out (a slow or silent name server).
        case lookupTimedOut
        /// The connection failed with this error number (refused, unreachable, …).
        case failed(Int32)
        /// The connection was not made within the time-out.
        case timedOut
        /// No socket could be made.
        case noSocket
    }

    private let socket: Int32

    private init(socket: Int32) {
        self.socket = socket
    }

    deinit {
        close(socket)
    }

    /// A connection to `host` at `port`, made within `timeout` seconds, the name's lookup included
    /// (``HostLookup``).
    static func connect(host: String, port: Int, timeout: Double) -> Result<TCPConnection, Failure> {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout.isNaN ? 0 : Swift.max(0, Swift.min(timeout, 86_400)) * 1000))
        let addresses: HostLookup.Addresses
        switch HostLookup.addresses(of: host, port: port, until: deadline) {
        case .found(let found): addresses = found
        case .notFound: return .failure(.unknownHost)
        case .timedOut: return .failure(.lookupTimedOut)
        }
        let address = addresses.first
        let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard socket >= 0 else { return .failure(.noSocket) }
        let connection = TCPConnection(socket: socket)
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        if Glibc.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 {
            guard errno == EINPROGRESS else { return .failure(.failed(errno)) }
            guard connection.wait(for: Int16(POLLOUT), timeout: (deadline - .now).inMilliseconds / 1000) else { return .failure(.timedOut) }
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket, SOL_SOCKET, SO_ERROR, &failure, &length)
            if failure != 0 { return .failure(.failed(failure)) }
        }
        return .success(connection)
    }

    /// Sends all of `text`, within `timeout` seconds; whether it was sent.
    func send(_ text: String, timeout: Double) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            guard wait(for: Int16(POLLOUT), timeout: timeout) else { return false }
            let count = bytes[sent...].withUnsafeBufferPointer { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Up to `count` bytes, those that arrive first within `timeout` seconds: empty when the peer closed the
    /// connection, nil when nothing came in time or the read failed.
    func receive(upTo count: Int, timeout: Double) -> [UInt8]? {
        guard wait(for: Int16(POLLIN), timeout: timeout) else { return nil }
        var chunk = [UInt8](repeating: 0, count: count)
        let read = recv(socket, &chunk, count, 0)
        guard read >= 0 else { return nil }
        return Array(chunk[..<read])
    }

    /// Whether the socket becomes ready for `events` within `timeout` seconds.
    private func wait(for events: Int16, timeout: Double) -> Bool {
        var entry = pollfd(fd: socket, events: events, revents: 0)
        return poll(&entry, 1, Int32(Swift.max(0, timeout) * 1000)) == 1
    }
}
