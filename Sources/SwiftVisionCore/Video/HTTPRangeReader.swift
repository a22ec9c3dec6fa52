import Foundation

/// Reads byte ranges of a file served over plain HTTP (`Range` requests answered `206 Partial Content`, RFC
/// 9110 §14), so that an MP4's or MOV's movie box can be read without the frames around it, and a Matroska
/// or WebM file's element headers a window at a time. The server is
/// untrusted: all requests together have one deadline, an answer's header may be at most 16 KiB and its body is read
/// only as far as the range asked for, at most 3 redirects (to `http:` only) are followed, and at most
/// ``requestLimit`` requests are made, however many boxes the file claims. A server that answers anything
/// but a range of the bytes asked for (a `200` with the whole file, a live stream) reads as nothing.
/// Not safe for concurrent use.
final class HTTPRangeReader {
    /// The file's size, from the first answer's `Content-Range`.
    let size: Int
    /// The most requests a reader makes: a top-level walk of an MP4 needs about four.
    static let requestLimit = 16
    /// The least bytes asked for at a time, so that neighbouring headers come in one request: 4 KiB for the
    /// top-level boxes of an MP4, more for a walk over a whole file's headers (a Matroska file's blocks).
    var leastRange = 4096
    private static let largestHeader = 16 << 10
    private var location: URL
    private let deadline: ContinuousClock.Instant
    private var requestsLeft = requestLimit
    private var cached = HeldBytes()

    /// A reader of the file at the `http:` URL `url` whose requests are all answered within `timeout`; nil
    /// when the server does not answer its first range request with one.
    init?(url: URL, timeout: Duration) {
        guard url.scheme?.lowercased() == "http" else { return nil }
        location = url
        deadline = .now + timeout
        var redirects = 0
        while true {
            switch Self.request(location, range: 0..<leastRange, deadline: deadline) {
            case .range(let body, let total):
                size = total
                cached.hold(body, from: 0)
                requestsLeft -= 1
                return
            case .redirect(let target) where redirects < 3 && target.scheme?.lowercased() == "http":
                location = target
                redirects += 1
            default:
                return nil
            }
        }
    }

    /// The `count` bytes from `offset`, fewer where the file ends first; nil when `offset` lies outside the
    /// file, the request fails or no requests are left.
    func bytes(at offset: Int, count: Int) -> Data? {
        guard offset >= 0, offset <= size, count >= 0 else { return nil }
        let end = offset + Swift.min(count, size - offset)
        guard end > offset else { return Data() }
        if let held = cached.bytes(from: offset, to: end) { return held }
        guard requestsLeft > 0 else { return nil }
        requestsLeft -= 1
        let asked = offset..<Swift.min(size, Swift.max(end, offset + leastRange))
        guard case .range(let body, let total) = Self.request(location, range: asked, deadline: deadline), total == size,
            body.count >= end - offset
        else { return nil }
        cached.hold(body, from: offset)
        return cached.bytes(from: offset, to: end)
    }

    /// What a server answered.
    private enum Answer {
        /// The bytes of the range asked for (or its start, where the file ends first) and the file's size.
        case range(Data, total: Int)
        /// A redirection to another URL.
        case redirect(URL)
        /// Anything else.
        case refused
    }

    /// Asks the server of `url` for the bytes in `range`, answered before `deadline`.
    private static func request(_ url: URL, range: Range<Int>, deadline: ContinuousClock.Instant) -> Answer {
        func left() -> Double { (deadline - .now).inMilliseconds / 1000 }
        guard let host = url.host, !host.isEmpty, let parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
            case .success(let connection) = TCPConnection.connect(host: host, port: url.port ?? 80, timeout: left())
        else { return .refused }
        let target = (parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath) + (parts.percentEncodedQuery.map { "?" + $0 } ?? "")
        let hostField = url.port.map { "\(host):\($0)" } ?? host
        let request =
            "GET \(target) HTTP/1.1\r\nHost: \(hostField)\r\nRange: bytes=\(range.lowerBound)-\(range.upperBound - 1)\r\n"
            + "Connection: close\r\nUser-Agent: SwiftVision\r\n\r\n"
        guard connection.send(request, timeout: left()) else { return .refused }
        var received: [UInt8] = []
        var headerEnd: Int?
        while headerEnd == nil {
            guard received.count < largestHeader, let chunk = connection.receive(upTo: 4096, timeout: left()), !chunk.isEmpty else { return .refused }
            received += chunk
            headerEnd = received.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound
        }
        guard let headerEnd, headerEnd <= largestHeader,
            let header = String(bytes: received[..<headerEnd], encoding: .utf8)?.split(separator: "\r\n"),
            let statusLine = header.first
        else { return .refused }
        let status = statusLine.split(separator: " ")
        guard status.count >= 2, status[0].hasPrefix("HTTP/1."), let code = Int(status[1]) else { return .refused }
        var fields: [String: String] = [:]
        for line in header.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if [301, 302, 303, 307, 308].contains(code) {
            return fields["location"].flatMap { URL(string: $0, relativeTo: url)?.absoluteURL }.map(Answer.redirect) ?? .refused
        }
        // `Content-Range: bytes FIRST-LAST/TOTAL`, starting where asked, within what was asked, no coding.
        guard code == 206, fields["transfer-encoding"] == nil, let contentRange = fields["content-range"], contentRange.hasPrefix("bytes "),
            case let numbers = contentRange.dropFirst(6).split(whereSeparator: { $0 == "-" || $0 == "/" }).map({ Int($0) }), numbers.count == 3,
            let first = numbers[0], let last = numbers[1], let total = numbers[2],
            first == range.lowerBound, last >= first, last < range.upperBound, last < total
        else { return .refused }
        let length = last - first + 1
        var body = received[headerEnd...].prefix(length)
        while body.count < length {
            guard let chunk = connection.receive(upTo: Swift.min(1 << 16, length - body.count), timeout: left()), !chunk.isEmpty else {
                return .refused
            }
            body += chunk
        }
        return .range(Data(body), total: total)
    }
}
