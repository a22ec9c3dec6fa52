import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import NIOCore
import Synchronization

/// The request context of the service: Hummingbird's WebSocket-capable context, plus the connection, so
/// that a request's work is cancelled when its client leaves.
///
/// An upgrade route stores the stream's handler, with a copy of this context, in the context's
/// ``webSocket`` reference, which that copy holds in turn: a cycle that kept every stream's connection
/// (its receive buffers, about 40 KiB a stream) alive after it closed. The reference lives in a
/// ``WebSocketSlot`` that the stream empties once it has started (``releaseWebSocketHandler()``).
struct ServiceRequestContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    /// Where the upgrade route leaves the stream's handler.
    private let slot = WebSocketSlot()
    /// The connection the request came on.
    let channel: any Channel
    /// Whose request it is, for the admission queue's fairness: the address the connection came from,
    /// or the one a trusted reverse proxy forwarded (``ClientAddressMiddleware``).
    var client: String

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        client = source.channel.remoteAddress?.ipAddress ?? ""
    }

    var webSocket: WebSocketHandlerReference<Self> { slot.reference.withLock { $0 } }

    /// Forgets the stream's handler, which Hummingbird has taken by the time the stream starts, so that
    /// the handler and this context no longer hold each other.
    func releaseWebSocketHandler() {
        slot.reference.withLock { $0 = WebSocketHandlerReference() }
    }

    /// The handler reference of one request, shared by the copies of its context.
    private final class WebSocketSlot: Sendable {
        let reference = Mutex(WebSocketHandlerReference<ServiceRequestContext>())
    }
}

/// Adds the headers that keep the page and the answers from being framed, sniffed or leaking where
/// they came from, to every response.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The page's content security policy: its own scripts, styles and connections only; images and
    /// video from the page's own blobs and the camera.
    let policy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; media-src 'self' blob: mediastream:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name.frameOptions] = "DENY"
        response.headers[HTTPField.Name.referrerPolicy] = "no-referrer"
        response.headers[.crossOriginResourcePolicy] = "same-origin"
        return response
    }
}

/// Refuses what a hostile web page or a confused proxy could send: a path with control characters, a
/// `Host` the service does not answer to (DNS rebinding), and — for WebSocket upgrades and requests that
/// run work — an `Origin` other than the service's own or an allowed one. Answers CORS for the allowed
/// origins only (none by default).
struct RequestGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    let allowedHosts: Set<String>?
    let allowedOrigins: Set<String>

    init(configuration: ServerConfiguration) {
        allowedOrigins = Set(configuration.allowedOrigins.compactMap(ServerConfiguration.origin))
        let names = configuration.serverNames.map { $0.lowercased() }
        if configuration.isLoopback || !names.isEmpty {
            var hosts = Set(names)
            hosts.insert(Self.hostName(configuration.host))
            if configuration.isLoopback { hosts.formUnion(["localhost", "127.0.0.1", "[::1]"]) }
            allowedHosts = hosts
        } else {
            allowedHosts = nil
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        let decoded = path.utf8.contains(UInt8(ascii: "%")) ? path.removingPercentEncoding ?? path : path
        guard !decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }), !decoded.contains("\\") else {
            throw APIError(.badRequest, "bad_path", "the path holds control characters")
        }
        let host = request.head.authority ?? ""
        if let allowedHosts {
            guard allowedHosts.contains(Self.hostName(host)) else {
                throw APIError(
                    .misdirectedRequest, "unknown_host",
                    "this service does not answer to the host \(host.prefix(100)); name it with --server-name")
            }
        }
        let origin = request.headers[.origin]
        let isUpgrade = request.headers[.upgrade]?.lowercased() == "websocket"
        let changesState = ![.get, .head, .options].contains(request.method)
        let allowed = origin.map { isAllowed(origin: $0, host: host) } ?? true
        if request.method == .options, let origin, allowedOrigins.contains(origin.lowercased()) {
            return Response(status: .noContent, headers: corsHeaders(origin: origin, preflight: true))
        }
        if (isUpgrade || changesState) && !allowed {
            throw APIError(
                .forbidden, "origin_not_allowed",
                "requests from the origin \(origin?.prefix(100) ?? "") are refused; allow it with --allow-origin")
        }
        var response = try await next(request, context)
        if let origin, allowedOrigins.contains(origin.lowercased()) {
            response.headers.append(contentsOf: corsHeaders(origin: origin, preflight: false))
        }
        return response
    }

    /// Whether `origin` is the service's own (the page it serves, at the host the request names) or allowed.
    /// WebSocket client libraries send `ws://HOST` of the host they connect to; browsers never send a
    /// `ws:` origin, so such a one naming the request's host is a non-browser client's and passes.
    private func isAllowed(origin: String, host: String) -> Bool {
        let origin = origin.lowercased()
        if allowedOrigins.contains(origin) { return true }
        let host = host.lowercased()
        if origin == "http://\(host)" || origin == "https://\(host)" { return true }
        for scheme in ["ws://", "wss://"] where origin.hasPrefix(scheme) {
            return Self.hostName(String(origin.dropFirst(scheme.count))) == Self.hostName(host)
        }
        return false
    }

    private func corsHeaders(origin: String, preflight: Bool) -> HTTPFields {
        var fields: HTTPFields = [.accessControlAllowOrigin: origin, .vary: "Origin"]
        if preflight {
            fields[.accessControlAllowMethods] = "GET, POST"
            fields[.accessControlAllowHeaders] = "Authorization, Content-Type"
            fields[.accessControlMaxAge] = "600"
        }
        return fields
    }

    /// The host name of a `Host` value, without the port, lower case (`[::1]` keeps its brackets).
    static func hostName(_ host: String) -> String {
        let host = host.lowercased()
        if host.hasPrefix("[") { return host.split(separator: "]").first.map { $0 + "]" } ?? host }
        if host == "::1" { return "[::1]" }
        return host.split(separator: ":").first.map(String.init) ?? host
    }
}

/// Lets a request through only with the service's token: `Authorization: Bearer TOKEN`, or
/// `?token=TOKEN` on a WebSocket upgrade (browsers cannot set headers on those). A token in the query of
/// any other request is refused, so that it does not end up in proxies' logs.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let isUpgrade = request.headers[.upgrade]?.lowercased() == "websocket"
        let query = request.uri.queryParameters.get("token").map { String($0) }
        guard Self.matches(request.headers[.authorization], "Bearer " + token) || (isUpgrade && Self.matches(query, token)) else {
            let message =
                query != nil && !isUpgrade
                ? "send the token as Authorization: Bearer TOKEN; ?token= is only for WebSocket upgrades"
                : "this service needs its token: Authorization: Bearer TOKEN"
            var error = APIError(.unauthorized, "unauthorized", message)
            error.headers[.wwwAuthenticate] = "Bearer realm=\"swiftvision\""
            throw error
        }
        return try await next(request, context)
    }

    /// Compares the texts' SHA-256 digests, in time that depends on neither the texts nor their lengths.
    static func matches(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let (a, b) = (SHA256.hash(data: Data(given.utf8)), SHA256.hash(data: Data(expected.utf8)))
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension HTTPField.Name {
    /// `X-Frame-Options`, for browsers that predate `frame-ancestors`.
    static let frameOptions = HTTPField.Name("X-Frame-Options")!
    /// `Referrer-Policy`.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}

/// Answers a refused WebSocket upgrade with its error — 401 with `WWW-Authenticate`, 403, 404, 503 —
/// written straight to the connection, which it then closes: once the upgrade is refused, the
/// WebSocket library would otherwise answer a bare 400 of its own.
struct UpgradeRefusalMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.upgrade]?.lowercased() == "websocket" else { return try await next(request, context) }
        do {
            return try await next(request, context)
        } catch {
            ConnectionWatch.answer(APIError.from(error), on: context.channel)
            throw error
        }
    }
}
