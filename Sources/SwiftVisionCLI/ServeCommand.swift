import ArgumentParser
import Foundation
import Logging
import SwiftVisionCollections
import SwiftVisionServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve every task over HTTP, live streams over WebSocket, and a web page that runs them on the webcam.",
        discussion: """
            POST /v1/{task} with an image body (options as query parameters, with the commands' names); \
            GET /v1/stream/{task} upgrades to a live-stream WebSocket; GET /v1/tasks lists tasks and options; \
            GET / is the web page; GET /healthz and GET /metrics (Prometheus) are for operations. With --sources, \
            POST /v1/sources runs files, RTSP streams and cameras and posts their events to webhooks (docs/sources.md). \
            With --models, GET /v1/models/{name} hosts the folder's .tflite files for FirebaseModelSource(name:) \
            on other machines (docs/porting.md). \
            SIGTERM or Ctrl-C stops it gracefully. Every limit and what to do before exposing the service: \
            docs/security.md.
            """)

    @Option(help: "The address to listen on; loopback unless you say otherwise.")
    var host = "127.0.0.1"

    @Option(help: "The TCP port.")
    var port = 8080

    @Option(help: "Require this token (Authorization: Bearer TOKEN). Visible to other users in `ps`: prefer --token-file or $SWIFTVISION_TOKEN.")
    var token: String?

    @Option(help: "Read the token from this file (its first line).")
    var tokenFile: String?

    @Option(help: "Inferences run at once (default: the number of cores); more requests wait.")
    var maxConcurrent: Int?

    @Option(help: "Requests admitted to wait for an inference (default: 4 per --max-concurrent); past that, 503 before the body is read.")
    var maxQueue: Int?

    @Option(help: "Live-stream WebSockets open at once (default: 16).")
    var maxStreams: Int?

    @Option(help: "Connections open at once (default: 256); past that, 503 and close.")
    var maxConnections: Int?

    @Option(help: "Threads for each inference (default: each task's).")
    var threads: Int?

    @Option(help: "Seconds a request may take before it is answered 504 and its work cancelled (default: 30).")
    var requestTimeout: Double?

    @Option(help: "Seconds a connection may take to send a request's headers (default: 10).")
    var headerTimeout: Double?

    @Option(help: "Seconds a request's body may take to arrive (default: 30).")
    var bodyTimeout: Double?

    @Option(help: "Seconds a kept-alive connection may stay idle (default: 60).")
    var idleTimeout: Double?

    @Option(help: "Seconds SIGTERM waits for requests in flight before closing their connections (default: 10).")
    var shutdownGrace: Double?

    @Option(help: "An origin (https://app.example) whose pages may use the service (WebSockets, posts, CORS); repeatable.")
    var allowOrigin: [String] = []

    @Option(help: "A host name the service answers to besides its address (checked against Host); repeatable.")
    var serverName: [String] = []

    @Option(help: ArgumentHelp(
        "A reverse proxy's address or network (10.0.0.0/8) whose X-Forwarded-For names the client; repeatable.",
        discussion: "Requests from it count, for the queue's fairness, as the client the header names (the nearest untrusted entry); without it the header is ignored."))
    var trustedProxy: [String] = []

    @Option(help: "Run sources (POST /v1/sources) and keep them in this JSON file, so that they come back after a restart; webhook posts wait beside it.")
    var sources: String?

    @Option(help: "The folder file:// sources must lie in (default: none, no file can be a source).")
    var sourceRoot: String?

    @Option(help: "Sources run at once (default: 8).")
    var maxSources: Int?

    @Option(help: "A host (host or host:port, * for any) that sources' webhooks may post to; repeatable (default: none).")
    var allowWebhook: [String] = []

    @Option(help: "A host (host or host:port, * for any) that rtsp:// sources may be read from; repeatable (default: none).")
    var allowCameraHost: [String] = []

    @Option(
        help: """
            The collections served at /v1/collections: an SQLite file (default: the cache folder's, made on first \
            use) or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, which several replicas can share.
            """)
    var collections: String?

    @Option(help: "Host this folder's .tflite files at GET /v1/models/{name} (the file name without .tflite), with their own token.")
    var models: String?

    @Option(help: "Read the token of /v1/models from this file (its first line); else $SWIFTVISION_MODEL_TOKEN.")
    var modelsTokenFile: String?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must lie in 0…65535") }
        if token != nil && tokenFile != nil { throw ValidationError("give --token or --token-file, not both") }
        for (name, value) in [
            ("--request-timeout", requestTimeout), ("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout),
            ("--idle-timeout", idleTimeout),
        ] {
            if let value, !(value > 0 && value <= 86_400) { throw ValidationError("\(name) must lie in (0, 86400] seconds") }
        }
        if let shutdownGrace, !(shutdownGrace >= 0 && shutdownGrace <= 3600) {
            throw ValidationError("--shutdown-grace must lie in 0…3600 seconds")
        }
        for (name, value, range) in [
            ("--max-concurrent", maxConcurrent, 1...1024), ("--max-queue", maxQueue, 0...100_000),
            ("--max-streams", maxStreams, 0...10_000), ("--max-connections", maxConnections, 1...100_000),
            ("--threads", threads, 1...ServerConfiguration.maximumThreads),
            ("--max-sources", maxSources, 0...ServerConfiguration.mostSources),
        ] {
            if let value, !range.contains(value) {
                throw ValidationError("\(name) must lie in \(range.lowerBound)…\(range.upperBound)")
            }
        }
    }

    /// The token from --token, --token-file or $SWIFTVISION_TOKEN; an empty one is an error, not an open service.
    func resolvedToken() throws -> String? {
        if let token { return token }
        if let tokenFile { return try Self.firstLine(of: tokenFile) }
        return ProcessInfo.processInfo.environment["SWIFTVISION_TOKEN"]
    }

    /// The first line of the token file `path`, without surrounding blanks.
    static func firstLine(of path: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ValidationError("cannot read the token file \(path)")
        }
        return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "").trimmingCharacters(in: .whitespaces)
    }

    func run() async throws {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.token = try resolvedToken()
        configuration.threads = threads
        if let maxConcurrent { configuration.maxConcurrent = maxConcurrent }
        configuration.maxQueued = maxQueue
        if let maxStreams { configuration.maxStreams = maxStreams }
        if let maxConnections { configuration.maxConnections = maxConnections }
        if let requestTimeout { configuration.requestTimeout = .milliseconds(Int(requestTimeout * 1000)) }
        if let headerTimeout { configuration.headerTimeout = .milliseconds(Int(headerTimeout * 1000)) }
        if let bodyTimeout { configuration.bodyTimeout = .milliseconds(Int(bodyTimeout * 1000)) }
        if let idleTimeout { configuration.idleTimeout = .milliseconds(Int(idleTimeout * 1000)) }
        if let shutdownGrace { configuration.shutdownGrace = .milliseconds(Int(shutdownGrace * 1000)) }
        configuration.allowedOrigins = allowOrigin
        configuration.serverNames = serverName
        configuration.trustedProxies = trustedProxy
        configuration.collections = CollectionStoreLocation(collections)
        configuration.sourcesFile = sources.map { URL(fileURLWithPath: $0) }
        if let sourceRoot {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: sourceRoot, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--source-root \(sourceRoot) is not a folder")
            }
            configuration.sourceRoot = URL(fileURLWithPath: sourceRoot).standardizedFileURL.resolvingSymlinksInPath()
        }
        if let maxSources { configuration.maxSources = maxSources }
        if let models {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: models, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--models \(models) is not a folder")
            }
            configuration.models = URL(fileURLWithPath: models, isDirectory: true)
            configuration.modelsToken = try modelsTokenFile.map(Self.firstLine(of:)) ?? ProcessInfo.processInfo.environment["SWIFTVISION_MODEL_TOKEN"]
        }
        configuration.webhookHosts = allowWebhook
        configuration.cameraHosts = allowCameraHost
        if let problem = configuration.problem { throw ValidationError(problem) }
        var logger = Logger(label: "swiftvision.server")
        logger.logLevel = logging.verbose ? .debug : .info
        if !configuration.isLoopback && configuration.token == nil {
            logger.warning("listening on \(host) without a token: anyone who can reach this address can use the service")
        }
        try await VisionService.run(configuration: configuration, logger: logger)
    }
}
