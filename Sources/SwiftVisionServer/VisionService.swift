import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import SwiftVision
import SwiftVisionCollections

/// SwiftVision over HTTP: every task of the registry as `POST /v1/{task}`, its live stream as the
/// WebSocket `GET /v1/stream/{task}`, `GET /v1/tasks`, `POST /v1/similarity`, the web page at `/`,
/// `GET /healthz` and `GET /metrics`.
///
/// Every request is admitted before its body is read (fairly between clients, see ``RequestLimiter``),
/// its images are checked from their headers before they are decoded, decoding and inference run off
/// the connection threads (an image decodes while other inferences run; only the inference holds a
/// slot), each request has a deadline, and a task's answer says where its time went in `Server-Timing`;
/// see docs/security.md for every limit.
public enum VisionService {
    /// The application for `configuration`; run it with ``run(configuration:logger:)`` for the
    /// graceful shutdown with its grace period, or `runService()`.
    public static func makeApplication(
        configuration: ServerConfiguration, logger: Logger = Logger(label: "swiftvision.server")
    ) -> some ApplicationProtocol {
        let router = makeRouter(configuration: configuration)
        let policy = ConnectionPolicy(configuration: configuration)
        let channel = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: HTTP1Channel.Configuration(additionalChannelHandlers: [RequestWatch(policy: policy)]),
            ws: WebSocketServerConfiguration(maxFrameSize: configuration.maxFrameBytes, autoPing: .enabled(timePeriod: .seconds(30))))
        let webSocketResponder = router.buildResponder()
        let server = HTTPServerBuilder { responder in
            GuardedChildChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: channel),
                policy: policy)
        }
        return Application(
            router: router,
            server: server,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "SwiftVision",
                // Past the cap and a margin for the connections being answered 503, stop accepting (the
                // kernel's backlog holds the rest) rather than run out of file descriptors.
                availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections + connectionMargin)),
            logger: logger)
    }

    /// Connections accepted past the cap only to be answered 503.
    static let connectionMargin = 32

    /// Runs the service until SIGTERM or SIGINT; then stops accepting, lets requests in flight finish
    /// for up to the configuration's grace period, and then cancels them and closes their connections.
    /// Sets the process's allocator to keep freed image buffers for the next request (``AllocatorSettings``).
    public static func run(configuration: ServerConfiguration, logger: Logger) async throws {
        AllocatorSettings.keepImageBuffers()
        var configuration = configuration
        configuration.maxConnections = FileDescriptorLimit.connections(fitting: configuration.maxConnections, logger: logger)
        let application = makeApplication(configuration: configuration, logger: logger)
        var group = ServiceGroupConfiguration(
            services: [.init(service: application)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = configuration.shutdownGrace
        group.maximumCancellationDuration = .seconds(5)
        try await ServiceGroup(configuration: group).run()
    }

    /// The routes of the service.
    static func makeRouter(configuration: ServerConfiguration) -> Router<ServiceRequestContext> {
        let catalog = TaskCatalog(threads: configuration.threads)
        let limiter = RequestLimiter(limit: configuration.maxConcurrent, queueLimit: configuration.queueLength)
        let streams = StreamAdmission(limit: configuration.maxStreams)
        let router = Router(context: ServiceRequestContext.self)
        if !configuration.trustedProxies.isEmpty {
            router.middlewares.add(ClientAddressMiddleware(proxies: TrustedProxies(networks: configuration.trustedProxies.compactMap(IPNetwork.init))))
        }
        router.middlewares.add(AccessLogMiddleware())
        router.middlewares.add(SecurityHeadersMiddleware())
        router.middlewares.add(JSONErrorMiddleware())
        router.middlewares.add(UpgradeRefusalMiddleware())
        router.middlewares.add(RequestGuardMiddleware(configuration: configuration))
        if let page = Bundle.module.url(forResource: "Public", withExtension: nil) {
            router.middlewares.add(FileMiddleware(page.path, searchForIndexHtml: true))
        }
        let openAPI = (try? OpenAPIDocument.json(registry: catalog.registry)) ?? Data("{}".utf8)
        router.get("openapi.json") { _, _ in json(openAPI) }
        router.get("healthz") { _, _ in health() }
        router.head("healthz") { _, _ in
            let answer = health()
            return Response(status: answer.status, headers: answer.headers)
        }

        DeepStackRoutes.add(to: router, catalog: catalog, limiter: limiter, configuration: configuration)
        // The model host has a token of its own, so it is not behind the service's.
        ModelRoutes.add(to: router, configuration: configuration)

        let protected = router.group()
        if let token = configuration.token { protected.add(middleware: TokenMiddleware(token: token)) }
        protected.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: ServerMetrics.exposition(limiter: limiter))))
        }
        SourceRoutes.add(to: protected, catalog: catalog, limiter: limiter, configuration: configuration)
        protected.get("v1/tasks") { _, _ in json(try catalog.registry.listing()) }
        CollectionRoutes.add(
            to: protected, store: CollectionStoreOpener(location: configuration.collections),
            limiter: limiter, configuration: configuration)
        protected.post("v1/similarity") { request, context in
            await instrumented(task: "similarity") {
                let admission = try limiter.admit(within: configuration.requestTimeout, client: context.client)
                let files = try await upload(request, images: 2, configuration: configuration, on: context.channel)
                let (answer, timings) = try await admission.staged(decoding: files, closing: context.channel) { images -> Double in
                    var options = EmbeddingsTask.Options()
                    options.threads = configuration.threads
                    let task = try EmbeddingsTask(options: options)
                    let first = try task.output(for: images[0]).embeddings[0]
                    try CancellationToken.checkpoint()
                    let second = try task.output(for: images[1]).embeddings[0]
                    return try first.cosineSimilarity(to: second)
                } encode: { (cosine: Double) in
                    try JSONSerialization.data(
                        withJSONObject: ["cosineSimilarity": cosine, "featurePrintDistance": (max(0, 2 - 2 * cosine)).squareRoot()],
                        options: [.sortedKeys])
                }
                return json(answer).timed(timings, task: "similarity")
            }
        }
        protected.post("v1/:task") { request, context in
            let name = context.parameters.get("task") ?? ""
            return await instrumented(task: name) {
                let admission = try limiter.admit(within: configuration.requestTimeout, client: context.client)
                let task = try await catalog.task(named: name, query: queryItems(request))
                let files = try await upload(request, images: 1, configuration: configuration, on: context.channel)
                let (answer, timings) = try await admission.answer(task, for: files[0], closing: context.channel)
                return json(answer).timed(timings, task: task.name)
            }
        }
        // A task's endpoint takes its image by POST: a browser or `curl URL` that GETs it learns so (405, `Allow: POST`)
        // instead of being told that the endpoint does not exist.
        protected.get("v1/:task") { _, context -> Response in
            let name = context.parameters.get("task") ?? ""
            guard catalog.registry.entry(named: name) != nil else { throw HTTPError(.notFound) }
            throw APIError.postOnly("/v1/\(name)")
        }
        protected.get("v1/similarity") { _, _ -> Response in throw APIError.postOnly("/v1/similarity") }
        protected.ws("v1/stream/:task") { request, context in
            // Refuse unknown tasks, bad options and a full house before upgrading, with a JSON error.
            guard streams.hasRoom else { throw streams.full }
            _ = try await catalog.task(named: context.parameters.get("task") ?? "", query: queryItems(request))
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                throw APIError(
                    HTTPResponse.Status(code: 426, reasonPhrase: "Upgrade Required"), "upgrade_required",
                    "GET /v1/stream/{task} is a WebSocket: connect with Upgrade: websocket")
            }
            // Last, once nothing else can refuse it: the seat is held until the connection closes.
            try streams.seat(on: context.channel)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            context.requestContext.releaseWebSocketHandler()
            let session = StreamSession(
                catalog: catalog, taskName: context.requestContext.parameters.get("task") ?? "",
                query: queryItems(context.request), maxFrameBytes: configuration.maxFrameBytes,
                maxPixels: configuration.maxPixels, limiter: limiter, logger: context.logger)
            try await session.run(inbound: inbound, outbound: outbound)
        }
        return router
    }

    /// The request's images, read (within the body limit) from `channel` and checked from their headers; not decoded.
    static func upload(
        _ request: Request, images: Int, configuration: ServerConfiguration, on channel: any Channel
    ) async throws -> [ImageUpload.File] {
        let body = try await Self.body(of: request, upTo: configuration.maxBodyBytes, on: channel)
        return try ImageUpload.files(
            in: body, contentType: request.headers[.contentType],
            limits: .init(
                images: images, maxPixels: configuration.maxPixels, maxRequestPixels: configuration.maxRequestPixels,
                maxParts: configuration.maxFormParts))
    }

    /// The request's body, at most `limit` bytes: a longer one is a 413 that names the limit (NIO's error
    /// carries what was left of it after the first chunk, not the limit). A client on `channel` that waits
    /// for leave to send it (`Expect: 100-continue`, as curl sends for a body over 1 MB) is told to now.
    static func body(of request: Request, upTo limit: Int, on channel: any Channel) async throws -> ByteBuffer {
        // Only such a client needs the hop to the connection's thread.
        if RequestWatch.awaitsContinue(request.headers) { RequestWatch.letBodyCome(on: channel) }
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError.bodyTooLarge(limit: limit)
        }
    }

    /// `{"status":"ok"}` when every task's model files are installed; 503 naming the missing files otherwise.
    static func health() -> Response {
        let missing = TaskRegistry.standard.entries.flatMap(\.descriptor.models).filter {
            !FileManager.default.fileExists(atPath: SwiftVisionCache.current.model(named: $0).path)
        }
        guard missing.isEmpty else {
            let body = try? JSONSerialization.data(
                withJSONObject: ["status": "not_installed", "missing": Array(Set(missing)).sorted()], options: [.sortedKeys])
            return Response(
                status: .serviceUnavailable, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: body ?? Data())))
        }
        return json(Data(#"{"status":"ok"}"#.utf8))
    }

    /// The request's query parameters in order, values percent-decoded.
    static func queryItems(_ request: Request) -> [(String, String)] {
        request.uri.queryParameters.map { (String($0.key), String($0.value)) }
    }

    /// A 200 response carrying the JSON `body`.
    static func json(_ body: Data) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Runs `handler`, answering its errors as JSON, and records the request's task, status and latency.
    static func instrumented(task: String, _ handler: () async throws -> Response) async -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await handler()
        } catch {
            response = APIError.from(error).response
        }
        let known = TaskRegistry.standard.entry(named: task) != nil || task == "similarity"
        ServerMetrics.record(task: known ? task : "unknown", status: Int(response.status.code), duration: ContinuousClock.now - start)
        return response
    }
}
