import Foundation
import SwiftVisionCollections

/// How `swiftvision serve` listens, what it accepts and how long it waits. Every limit is the
/// server's: no client can choose threads, queue lengths or memory.
public struct ServerConfiguration: Sendable {
    /// The address to bind: loopback by default, so nothing outside the machine can reach it.
    public var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one.
    public var port = 8080
    /// When set, `/v1/…` and `/metrics` need `Authorization: Bearer TOKEN` (WebSocket upgrades may
    /// send `?token=TOKEN` instead, as browsers cannot set headers on them). Never empty.
    public var token: String?
    /// Inferences run at once; more requests wait in a queue.
    public var maxConcurrent = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Requests admitted to wait for an inference (their bodies being read or waiting for a slot);
    /// past that the service answers 503 with `Retry-After` before reading the body. Nil: four per
    /// inference slot.
    public var maxQueued: Int?
    /// Live-stream WebSockets open at once; each holds an inference slot while a frame is in flight.
    public var maxStreams = 16
    /// Connections open at once; past that a connection is answered 503 and closed.
    public var maxConnections = 256
    /// Threads for each inference; nil for each task's default.
    public var threads: Int?
    /// The largest request body, in bytes.
    public var maxBodyBytes = 25 * 1024 * 1024
    /// The largest image, in pixels, read from its header before it is decoded.
    public var maxPixels = 50_000_000
    /// The pixels of all the images of one request together.
    public var maxRequestPixels = 50_000_000
    /// The most parts a `multipart/form-data` body may have.
    public var maxFormParts = 8
    /// The largest WebSocket message (one frame), in bytes.
    public var maxFrameBytes = 8 * 1024 * 1024
    /// How long a request may take from its arrival to its answer; past that it is answered 504 and
    /// its work is cancelled.
    public var requestTimeout: Duration = .seconds(30)
    /// How long a new connection may take to send its first request's headers.
    public var headerTimeout: Duration = .seconds(10)
    /// How long a request's body may take to arrive once its headers have.
    public var bodyTimeout: Duration = .seconds(30)
    /// How long a kept-alive connection may stay idle between requests.
    public var idleTimeout: Duration = .seconds(60)
    /// How long SIGTERM or Ctrl-C waits for requests in flight before it closes their connections.
    public var shutdownGrace: Duration = .seconds(10)
    /// Origins (`https://app.example`) other than the service's own that may open live streams, post
    /// requests and read answers (CORS). Empty: the service's own page only.
    public var allowedOrigins: [String] = []
    /// Host names (with or without a port) the service answers to besides the address it listens on and,
    /// on loopback, `localhost`, `127.0.0.1` and `[::1]`: a request naming another host is refused, which
    /// stops DNS rebinding. Only checked on loopback unless names are given.
    public var serverNames: [String] = []
    /// Networks (`10.0.0.0/8`, `192.0.2.7`, `fd00::/8`) of reverse proxies whose `X-Forwarded-For` names the
    /// client, so that the admission queue is fair between the clients behind them rather than counting
    /// them all as the proxy. None by default: the header is ignored.
    public var trustedProxies: [String] = []
    /// The JSON file that keeps the sources the service runs (`POST /v1/sources`), so that they come back
    /// after a restart; their webhook posts wait beside it. Nil: the service runs no sources.
    public var sourcesFile: URL?
    /// The folder `file://` sources must lie in; nil: no file can be a source.
    public var sourceRoot: URL?
    /// Sources run at once.
    public var maxSources = 8
    /// Hosts (`host` or `host:port`, `*` for any) that sources' webhooks may post to; none by default.
    public var webhookHosts: [String] = []
    /// Hosts (`host` or `host:port`, `*` for any) that `rtsp://` sources may be read from; none by default.
    public var cameraHosts: [String] = []

    /// The folder whose `.tflite` files `/v1/models` hosts by name, for `FirebaseModelSource(name:)` on other
    /// machines; nil: no models are hosted.
    public var models: URL?
    /// The token `/v1/models` needs (`Authorization: Bearer TOKEN`); required with ``models``.
    public var modelsToken: String?

    /// The collections served at `/v1/collections`, opened on first use: the cache folder's SQLite file by
    /// default, or a PostgreSQL database that several replicas share.
    public var collections = CollectionStoreLocation(nil)

    /// The defaults: loopback, port 8080, no token.
    public init() {}

    /// Whether the address is reachable only from this machine.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The queue length in force.
    public var queueLength: Int { maxQueued ?? 4 * maxConcurrent }

    /// Why the configuration cannot be served, or nil when it can.
    public var problem: String? {
        if let token, token.isEmpty { return "the token is empty: give a non-empty token, or none" }
        if let token, token.contains(where: { $0.isWhitespace || $0.isNewline }) {
            return "the token contains white space"
        }
        if models != nil && modelsToken == nil {
            return "hosting models needs their token: --models-token-file FILE or $SWIFTVISION_MODEL_TOKEN"
        }
        if let modelsToken, modelsToken.isEmpty || modelsToken.contains(where: { $0.isWhitespace || $0.isNewline }) {
            return "the models token is empty or contains white space"
        }
        if maxConcurrent < 1 { return "max-concurrent must be at least 1" }
        if queueLength < 0 { return "max-queue must be at least 0" }
        if maxStreams < 0 { return "max-streams must be at least 0" }
        if maxConnections < 1 { return "max-connections must be at least 1" }
        if !(0...Self.mostSources).contains(maxSources) { return "max-sources must lie in 0…\(Self.mostSources)" }
        if let threads, !(1...Self.maximumThreads).contains(threads) {
            return "threads must lie in 1…\(Self.maximumThreads)"
        }
        for (name, duration) in [
            ("request-timeout", requestTimeout), ("header-timeout", headerTimeout), ("body-timeout", bodyTimeout),
            ("idle-timeout", idleTimeout),
        ] where duration <= .zero {
            return "\(name) must be positive"
        }
        if shutdownGrace < .zero { return "shutdown-grace must not be negative" }
        if let proxy = trustedProxies.first(where: { IPNetwork($0) == nil }) {
            return "trusted-proxy \(proxy) is not an address or network such as 10.0.0.0/8, 192.0.2.7 or fd00::/8"
        }
        if let origin = allowedOrigins.first(where: { Self.origin($0) == nil }) {
            return "allow-origin \(origin) is not an origin such as https://app.example or http://localhost:3000"
        }
        return nil
    }

    /// The highest `--max-sources`: each source has a decoding thread of its own.
    public static let mostSources = 256

    /// The most threads the service lets an inference use.
    public static var maximumThreads: Int { 4 * max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// `text` as a serialised origin (scheme, host, optional port, lower case), or nil when it is not one.
    static func origin(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty,
            components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil,
            components.user == nil
        else { return nil }
        let port = components.port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(host.lowercased())\(port)"
    }
}
