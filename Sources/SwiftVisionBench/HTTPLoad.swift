import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The bench's own HTTP client: `connections` threads, each POSTing one body over a keep-alive
/// connection back to back (reconnecting when the server closes), recording every answer's status,
/// latency and `Server-Timing` stages. wrk gives the rates; this gives where each request's time went.
enum HTTPLoad {
    /// One answer.
    struct Answer {
        var status: Int
        /// From the request's first byte sent to its answer's last byte read, in milliseconds.
        var milliseconds: Double
        /// The `Server-Timing` stages, in milliseconds.
        var stages: [String: Double]
    }

    /// Posts `body` to `path` on 127.0.0.1:`port` from `connections` connections for `seconds`, or until
    /// each has sent `requests` (whichever comes first).
    static func run(
        port: Int, path: String, body: Data, contentType: String, connections: Int, seconds: Double, requests: Int = .max
    ) -> [Answer] {
        let answers = Shared<[Answer]>([])
        let deadline = Date().addingTimeInterval(seconds)
        let head = Data((
            "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: \(contentType)\r\n"
                + "Content-Length: \(body.count)\r\n\r\n").utf8)
        let request = head + body
        let group = DispatchGroup()
        for _ in 0..<connections {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                var connection: Int32 = -1
                var own: [Answer] = []
                while Date() < deadline && own.count < requests {
                    if connection < 0 { connection = connect(port: port) }
                    guard connection >= 0 else { break }
                    let start = ContinuousClock.now
                    guard let (status, headers) = exchange(request, on: connection) else {
                        close(connection)
                        connection = -1
                        continue
                    }
                    own.append(Answer(
                        status: status, milliseconds: (ContinuousClock.now - start).inMilliseconds,
                        stages: serverTiming(headers["server-timing"] ?? "")))
                    if headers["connection"]?.lowercased() == "close" {
                        close(connection)
                        connection = -1
                    }
                }
                if connection >= 0 { close(connection) }
                answers.value += own
            }
            thread.start()
        }
        group.wait()
        return answers.value
    }

    /// The stages of a `Server-Timing` value such as `queue;dur=0.02, decode;dur=3.1`.
    static func serverTiming(_ value: String) -> [String: Double] {
        var stages: [String: Double] = [:]
        for part in value.split(separator: ",") {
            let fields = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let name = fields.first, let duration = fields.dropFirst().first(where: { $0.hasPrefix("dur=") }) else { continue }
            stages[name] = Double(duration.dropFirst(4))
        }
        return stages
    }

    /// A TCP connection to 127.0.0.1:`port` with Nagle's delay off, or -1.
    static func connect(port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    /// Sends `request` and reads one answer; its status and headers (names lowercased), nil when the
    /// connection failed or closed first.
    private static func exchange(_ request: Data, on connection: Int32) -> (Int, [String: String])? {
        let sent = request.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { return nil }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let separator = Data("\r\n\r\n".utf8)
        var headEnd: Range<Data.Index>?
        var wanted = Int.max
        while received.count < wanted {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[0..<count])
            if headEnd == nil, let end = received.range(of: separator) {
                headEnd = end
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                wanted = end.upperBound - received.startIndex + length
            }
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: received[..<headEnd.lowerBound], as: UTF8.self).split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.split(separator: " ").count >= 2,
            let status = Int(statusLine.split(separator: " ")[1])
        else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            let pair = line.split(separator: ":", maxSplits: 1)
            if pair.count == 2 { headers[pair[0].lowercased()] = pair[1].trimmingCharacters(in: .whitespaces) }
        }
        return (status, headers)
    }
}
