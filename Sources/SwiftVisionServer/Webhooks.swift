import Crypto
import Foundation
import Logging
import SwiftVision
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where a source's events are posted: an `http://` URL and the secret that signs each post.
struct WebhookTarget: Codable, Sendable, Equatable {
    /// The receiver, `http://host[:port]/path`.
    var url: String
    /// The HMAC-SHA256 key of ``WebhookSignature``.
    var secret: String

    /// The longest URL and secret accepted.
    static let longestURL = 2048, longestSecret = 256

    /// Checks the target: an `http://` URL with a host that `allowedHosts` names (`host` or `host:port`,
    /// `*` for any; nil allows any), and a secret of 16…256 characters.
    func validated(allowedHosts: [String]?) throws -> WebhookTarget {
        guard url.utf8.count <= Self.longestURL, let endpoint = HTTPEndpoint(url) else {
            throw APIError(
                .badRequest, "bad_webhook",
                "webhook.url must be an http:// URL with a host, at most \(Self.longestURL) bytes (https: put a TLS proxy on this side)")
        }
        guard (16...Self.longestSecret).contains(secret.count) else {
            throw APIError(.badRequest, "bad_webhook", "webhook.secret must have 16…\(Self.longestSecret) characters")
        }
        if let allowedHosts, !HostList(allowedHosts).allows(endpoint.host, port: endpoint.port) {
            throw APIError(
                .forbidden, "webhook_not_allowed",
                "the service does not post to \(endpoint.host):\(endpoint.port): the operator allows webhooks with --allow-webhook")
        }
        return self
    }
}

/// Hosts an operator lets the service reach: `host` (any port), `host:port`, or `*` for any.
struct HostList {
    let entries: [String]

    init(_ entries: [String]) {
        self.entries = entries.map { $0.lowercased() }
    }

    /// Whether `host` (lowercase) on `port` is on the list.
    func allows(_ host: String, port: Int) -> Bool {
        entries.contains("*") || entries.contains(host) || entries.contains("\(host):\(port)")
    }
}

/// The signature of a webhook post: `X-SwiftVision-Signature: t=UNIX_SECONDS,v1=HEX`, where HEX is the
/// HMAC-SHA256 with the secret over `UNIX_SECONDS + "." + body`.
enum WebhookSignature {
    /// The header's name.
    static let header = "X-SwiftVision-Signature"

    /// The header's value for `body` signed with `secret` at `time` (seconds since 1970).
    static func value(body: Data, secret: String, time: Int64) -> String {
        var signed = Data("\(time).".utf8)
        signed.append(body)
        let code = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Data(secret.utf8)))
        return "t=\(time),v1=" + code.hexString
    }
}

/// Webhook posts waiting to be delivered, kept in a JSON Lines file so that none is lost when the
/// receiver is down or the service restarts; delivered in order per URL, at least once, by one thread.
/// A failed post is retried with exponential backoff and seeded jitter; after its ``Retries/attempts`` it
/// goes to the dead-letter file. Past ``capacity`` waiting posts, the oldest go there too.
final class WebhookOutbox: Sendable {
    /// One post: the event's JSON, where it goes and how it has fared.
    struct Entry: Codable, Sendable {
        var id: String
        var target: WebhookTarget
        var body: String
        var attempts = 0
        /// When the next attempt may start, in milliseconds since 1970.
        var dueMs: Int64 = 0
        var lastError: String?
    }

    /// How a failed post is tried again.
    struct Retries: Sendable {
        /// Attempts before a post goes to the dead letters.
        var attempts: Int
        /// The first retry's delay and the longest, in milliseconds.
        var firstDelay: Int64, longestDelay: Int64

        /// The service's: 10 attempts, from 0.5 s doubling to 30 s, about two minutes of retrying.
        static let standard = Retries(attempts: 10, firstDelay: 500, longestDelay: 30_000)
    }

    /// Posts waiting at once.
    static let capacity = 10_000

    private let entries = Mutex<[Entry]>([])
    private let wake = DispatchSemaphore(value: 0)
    private let file: URL?
    private let deadLetters: URL?
    private let logger: Logger
    private let retries: Retries
    private let jitter = Mutex(SeededGenerator(seed: 0x5357_5649_5349_4f4e))

    /// An outbox kept in `file` (nil: in memory only), with dead letters in `deadLetters`, retrying as
    /// `retries` says; entries already in the file are delivered. Its thread delivers for as long as the
    /// process runs.
    init(file: URL?, deadLetters: URL?, retries: Retries = .standard, logger: Logger) {
        self.file = file
        self.deadLetters = deadLetters
        self.retries = retries
        self.logger = logger
        if let file, let text = try? String(contentsOf: file, encoding: .utf8) {
            let decoder = JSONDecoder()
            let entries = text.split(separator: "\n").compactMap { try? decoder.decode(Entry.self, from: Data($0.utf8)) }
            self.entries.withLock { $0 = Array(entries.suffix(Self.capacity)) }
        }
        let thread = Thread { [self] in deliver() }
        thread.name = "SwiftVision webhooks"
        thread.start()
    }

    /// Posts waiting.
    var waiting: Int {
        entries.withLock { $0.count }
    }

    /// Queues `event` for `target`, on disk before this returns.
    func enqueue(_ event: SourceEvent, to target: WebhookTarget) {
        let entry = Entry(id: event.id, target: target, body: String(decoding: event.encoded(), as: UTF8.self))
        let overflow = entries.withLock { entries -> [Entry] in
            entries.append(entry)
            let excess = max(0, entries.count - Self.capacity)
            defer { entries.removeFirst(excess) }
            return Array(entries.prefix(excess))
        }
        for entry in overflow { bury(entry, reason: "the outbox was full") }
        save()
        wake.signal()
    }

    private func deliver() {
        while true {
            let now = Self.nowMilliseconds()
            let (due, nextDue) = entries.withLock { entries -> ([Entry], Int64?) in
                // Per URL, only the oldest waiting post may go: later ones wait behind it, in order.
                var blocked: Set<String> = []
                var due: [Entry] = []
                for entry in entries where !blocked.contains(entry.target.url) {
                    blocked.insert(entry.target.url)
                    if entry.dueMs <= now { due.append(entry) }
                }
                return (due, entries.map(\.dueMs).min())
            }
            guard !due.isEmpty else {
                let wait = nextDue.map { max(1, $0 - now) } ?? 60_000
                _ = wake.wait(timeout: .now() + .milliseconds(Int(min(wait, 60_000))))
                continue
            }
            for entry in due { attempt(entry) }
            save()
        }
    }

    private func attempt(_ entry: Entry) {
        let body = Data(entry.body.utf8)
        let failure: String?
        do {
            let status = try HTTPPost.send(
                body, to: entry.target.url,
                headers: [
                    "Content-Type": "application/json",
                    WebhookSignature.header: WebhookSignature.value(
                        body: body, secret: entry.target.secret, time: Self.nowMilliseconds() / 1000),
                ])
            failure = (200..<300).contains(status) ? nil : "the receiver answered \(status)"
        } catch {
            failure = "\(error)"
        }
        var buried: Entry?
        entries.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.id == entry.id && $0.target == entry.target }) else { return }
            guard let failure else {
                entries.remove(at: index)
                return
            }
            entries[index].attempts += 1
            entries[index].lastError = failure
            if entries[index].attempts >= retries.attempts {
                buried = entries.remove(at: index)
            } else {
                entries[index].dueMs = Self.nowMilliseconds() + delay(afterAttempts: entries[index].attempts)
            }
        }
        if let buried { bury(buried, reason: buried.lastError ?? "failed") }
    }

    /// The wait after `attempts` failures: doubling from the first delay up to the longest, ±20 %.
    private func delay(afterAttempts attempts: Int) -> Int64 {
        let base = min(retries.longestDelay, retries.firstDelay << Int64(min(attempts - 1, 16)))
        let factor = jitter.withLock { 0.8 + 0.4 * $0.nextUnit() }
        return Int64(Double(base) * factor)
    }

    /// Appends `entry` to the dead letters, with `reason`.
    private func bury(_ entry: Entry, reason: String) {
        logger.warning("webhook post given up", metadata: ["event": "\(entry.id)", "url": "\(entry.target.url)", "reason": "\(reason)"])
        guard let deadLetters else { return }
        var record = entry
        record.lastError = reason
        record.target.secret = ""
        guard var line = try? serviceEncoder.encode(record) else { return }
        line.append(UInt8(ascii: "\n"))
        if let handle = FileHandle(forWritingAtPath: deadLetters.path) ?? Self.createPrivate(deadLetters) {
            _ = try? handle.seekToEnd()
            try? handle.write(contentsOf: line)
            try? handle.close()
        }
    }

    /// Writes the waiting posts to the file, atomically.
    private func save() {
        guard let file else { return }
        var text = Data()
        for entry in entries.withLock({ $0 }) {
            guard let line = try? serviceEncoder.encode(entry) else { continue }
            text.append(line)
            text.append(UInt8(ascii: "\n"))
        }
        do {
            try PrivateFile.write(text, to: file)
        } catch {
            logger.error("cannot write the webhook outbox", metadata: ["file": "\(file.path)", "error": "\(error)"])
        }
    }

    private static func createPrivate(_ url: URL) -> FileHandle? {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        return descriptor >= 0 ? FileHandle(fileDescriptor: descriptor, closeOnDealloc: true) : nil
    }

    static func nowMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded())
    }
}

/// Files only their owner may read (they hold webhook secrets), written atomically: a temporary file
/// beside the target, synced, then renamed over it.
enum PrivateFile {
    /// Replaces `url`'s contents with `data`.
    static func write(_ data: Data, to url: URL) throws {
        let temporary = url.path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary]) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
        } catch {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, url.path) == 0 else {
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }
}

/// SplitMix64: jitter that is the same on every run.
struct SeededGenerator: Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// A number in [0, 1).
    mutating func nextUnit() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
}

/// An `http://` URL's parts.
struct HTTPEndpoint {
    let host: String
    let port: Int
    let target: String

    init?(_ text: String) {
        guard let components = URLComponents(string: text), components.scheme?.lowercased() == "http",
            let host = components.host, !host.isEmpty, components.user == nil, components.password == nil
        else { return nil }
        let port = components.port ?? 80
        guard (1...65535).contains(port) else { return nil }
        self.host = host.lowercased()
        self.port = port
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        target = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}

/// One HTTP/1.1 POST over a plain socket, on the calling thread, bounded in time: ``connectTimeout``
/// to connect and ``ioTimeout`` for each send and receive.
enum HTTPPost {
    static let connectTimeout = 3, ioTimeout = 5

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Posts `body` to `url` and returns the answer's status.
    static func send(_ body: Data, to url: String, headers: [String: String]) throws -> Int {
        guard let endpoint = HTTPEndpoint(url) else { throw Failure(description: "not an http:// URL") }
        let socket = try connect(endpoint)
        defer { close(socket) }
        let host = endpoint.port == 80 ? endpoint.host : "\(endpoint.host):\(endpoint.port)"
        var head = "POST \(endpoint.target) HTTP/1.1\r\nHost: \(host)\r\nUser-Agent: SwiftVision\r\nConnection: close\r\n"
        head += "Content-Length: \(body.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        var request = Data((head + "\r\n").utf8)
        request.append(body)
        try request.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = Glibc.send(socket, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { throw Failure(description: "sending failed: \(String(cString: strerror(errno)))") }
                sent += count
            }
        }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !answer.contains(UInt8(ascii: "\n")), answer.count < 65_536 {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            answer.append(contentsOf: buffer[0..<count])
        }
        let line = String(decoding: answer.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
            throw Failure(description: "the receiver did not answer over HTTP")
        }
        return status
    }

    private static func connect(_ endpoint: HTTPEndpoint) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let host = endpoint.host.hasPrefix("[") ? String(endpoint.host.dropFirst().dropLast()) : endpoint.host
        guard getaddrinfo(host, String(endpoint.port), &hints, &found) == 0, let first = found else {
            throw Failure(description: "cannot resolve \(endpoint.host)")
        }
        defer { freeaddrinfo(found) }
        var reason = "no address"
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let socket = Glibc.socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socket >= 0 else { continue }
            var timeout = timeval(tv_sec: connectTimeout, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if Glibc.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
                timeout.tv_sec = ioTimeout
                setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                return socket
            }
            reason = String(cString: strerror(errno))
            close(socket)
        }
        throw Failure(description: "cannot connect to \(endpoint.host):\(endpoint.port): \(reason)")
    }
}
