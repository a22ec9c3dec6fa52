import Foundation

/// How `swiftvision serve` listens and what it accepts.
public struct ServerConfiguration: Sendable {
    /// The address to bind: loopback by default, so nothing outside the machine can reach it.
    public var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one.
    public var port = 8080
    /// When set, `/v1/…` and `/metrics` need `Authorization: Bearer TOKEN` (or `?token=TOKEN`).
    public var token: String?
    /// Inferences run at once; more requests wait in a queue.
    public var maxConcurrent = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Requests that may wait for an inference; past that the service answers 503 with `Retry-After`.
    public var maxQueued = 64
    /// Threads for each inference; nil for each task's default.
    public var threads: Int?
    /// The largest request body, in bytes.
    public var maxBodyBytes = 25 * 1024 * 1024
    /// The largest image, in pixels.
    public var maxPixels = 50_000_000
    /// The largest WebSocket message (one frame), in bytes.
    public var maxFrameBytes = 8 * 1024 * 1024

    /// The defaults: loopback, port 8080, no token.
    public init() {}

    /// Whether the address is reachable only from this machine.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
