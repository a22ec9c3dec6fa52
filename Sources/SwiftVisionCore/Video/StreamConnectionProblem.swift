import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a network video source could not be opened, in words a user can act on: FFmpeg (through OpenCV) says
/// only that it opened nothing, whether the host is unknown, nothing listens on the port, the server is
/// silent or it answers "404 Not Found". After such a failure the source is reached again here: the name
/// looked up, a TCP connection made, and for `http:` and `rtsp:` the request FFmpeg makes first (`GET`,
/// `DESCRIBE`) sent and the status line of the answer read. Messages name the host and port the user gave
/// and the status by its number and standard meaning, never the server's own words.
enum StreamConnectionProblem {
    /// The port each scheme uses when the URL names none.
    static let defaultPorts = ["rtsp": 554, "rtsps": 322, "rtmp": 1935, "http": 80, "https": 443]

    /// The standard meaning of the statuses a video server answers with (RFC 9110 §15, RFC 2326 §7.1.1).
    static let statusMeanings = [
        400: "bad request", 401: "unauthorized", 403: "forbidden", 404: "not found", 405: "method not allowed",
        406: "not acceptable", 410: "gone", 451: "parameter not understood", 453: "not enough bandwidth",
        454: "session not found", 461: "unsupported transport", 500: "internal server error", 501: "not implemented",
        502: "bad gateway", 503: "service unavailable", 504: "gateway timeout",
    ]

    /// The most each step (the connection, the answer) waits.
    static let longestStep = 5.0
    /// The least each step waits, however little is left of the open's time-out: a server that has been
    /// silent all along is given a moment to answer a request of its own, so that one answering at once (a
    /// camera that accepts the request and sends no frame) is told from a silent one.
    static let shortestStep = 1.0

    /// How long each step waits after an open that failed in `openTook` seconds under a time-out of
    /// `openTimeout`: what is left of the time-out, from ``shortestStep`` to ``longestStep``, so that an open
    /// that ran out its time-out is not waited on again.
    static func stepTimeout(afterOpenTaking openTook: Double, timeout openTimeout: Double) -> Double {
        Swift.min(longestStep, Swift.max(shortestStep, openTimeout - openTook))
    }

    /// Why the stream at `url` cannot be opened, found within about `timeout` seconds per step, after the open
    /// that failed waited `waited` seconds: a step that times out says how long the server was waited on, the
    /// two together. Nil when no fault shows (the server answers as a working one does, or the scheme is one
    /// only FFmpeg speaks past the connection: `rtmp:`, `https:`, `rtsps:`).
    static func diagnose(_ url: URL, timeout: Double = longestStep, waited: Double = 0) -> String? {
        guard let scheme = url.scheme?.lowercased(), let port = url.port ?? defaultPorts[scheme], let host = url.host, !host.isEmpty
        else { return nil }
        let place = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let silence = Int(waited + timeout)
        let connection: TCPConnection
        switch TCPConnection.connect(host: host, port: port, timeout: timeout) {
        case .success(let made): connection = made
        case .failure(.unknownHost): return "the host \(host) is not found"
        case .failure(.lookupTimedOut): return "the host name \(host) was not resolved within \(silence) s: the name server is slow or silent"
        case .failure(.timedOut): return "the connection to \(place) timed out after \(silence) s"
        case .failure(.failed(let code)): return connectionProblem(code, place: place)
        case .failure(.noSocket): return nil
        }
        guard let request = firstRequest(for: url, scheme: scheme, host: host), connection.send(request, timeout: timeout) else { return nil }
        var answer: [UInt8] = []
        while !answer.contains(UInt8(ascii: "\n")), answer.count < 4096 {
            guard let chunk = connection.receive(upTo: 512, timeout: timeout) else {
                return "the server at \(place) did not answer within \(silence) s"
            }
            guard !chunk.isEmpty else { break }
            answer += chunk
        }
        return statusProblem(of: answer, scheme: scheme, place: place, withCredentials: url.user != nil)
    }

    /// The request FFmpeg sends first on `scheme`, without the URL's credentials: `DESCRIBE` for RTSP, `GET`
    /// for HTTP (as HTTP/1.0, so that the server closes the connection); nil for other schemes.
    private static func firstRequest(for url: URL, scheme: String, host: String) -> String? {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        parts.user = nil
        parts.password = nil
        let hostField = url.port.map { "\(host):\($0)" } ?? host
        switch scheme {
        case "rtsp":
            guard let plain = parts.string else { return nil }
            return "DESCRIBE \(plain) RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\nUser-Agent: SwiftVision\r\n\r\n"
        case "http":
            let target = (parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath) + (parts.percentEncodedQuery.map { "?" + $0 } ?? "")
            return "GET \(target) HTTP/1.0\r\nHost: \(hostField)\r\nUser-Agent: SwiftVision\r\n\r\n"
        default:
            return nil
        }
    }

    /// What the status line at the start of `answer` says is wrong: a status of 400 or more, by its number
    /// and meaning; an answer that is no RTSP or HTTP status line, or none at all. Nil for a success or a
    /// redirection (FFmpeg follows those).
    private static func statusProblem(of answer: [UInt8], scheme: String, place: String, withCredentials: Bool) -> String? {
        let protocolName = scheme == "rtsp" ? "RTSP" : "HTTP"
        guard !answer.isEmpty else { return "the server at \(place) closed the connection without an answer" }
        let line = String(decoding: answer.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let fields = line.split(separator: " ", maxSplits: 2)
        guard fields.count >= 2, fields[0].hasPrefix(protocolName + "/"), let code = Int(fields[1]), (100...999).contains(code) else {
            return "the server at \(place) does not answer in \(protocolName)"
        }
        guard code >= 400 else { return nil }
        if code == 401 {
            return withCredentials
                ? "the server refuses the user name and password given (401 unauthorized)"
                : "the server asks for a user name and password (401 unauthorized): give them in the URL"
        }
        return "the server answers \(code)" + (statusMeanings[code].map { " \($0)" } ?? "")
    }

    /// The words for a failed connection's error number.
    private static func connectionProblem(_ code: Int32, place: String) -> String {
        switch code {
        case ECONNREFUSED: "the connection to \(place) was refused: nothing listens there"
        case ETIMEDOUT: "the connection to \(place) timed out"
        case EHOSTUNREACH, ENETUNREACH: "\(place) cannot be reached from here (no route to it)"
        default: "cannot connect to \(place): \(String(cString: strerror(code)))"
        }
    }
}
