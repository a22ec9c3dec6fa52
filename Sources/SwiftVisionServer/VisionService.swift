import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import SwiftVision

/// SwiftVision over HTTP: every task of the registry as `POST /v1/{task}`, its live stream as the
/// WebSocket `GET /v1/stream/{task}`, `GET /v1/tasks`, `POST /v1/similarity`, the web page at `/`,
/// `GET /healthz` and `GET /metrics`.
public enum VisionService {
    /// The application for `configuration`; run it with `runService()` (SIGTERM and SIGINT shut it
    /// down gracefully: requests in flight finish).
    public static func makeApplication(
        configuration: ServerConfiguration, logger: Logger = Logger(label: "swiftvision.server")
    ) -> some ApplicationProtocol {
        let router = makeRouter(configuration: configuration)
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: router,
                configuration: HTTP1WebSocketUpgradeChannel.Configuration(ws: WebSocketServerConfiguration(maxFrameSize: configuration.maxFrameBytes))),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "SwiftVision"),
            logger: logger)
    }

    /// The routes of the service.
    static func makeRouter(configuration: ServerConfiguration) -> Router<BasicWebSocketRequestContext> {
        let catalog = TaskCatalog(threads: configuration.threads)
        let limiter = RequestLimiter(limit: configuration.maxConcurrent, queueLimit: configuration.maxQueued)
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.middlewares.add(AccessLogMiddleware())
        router.middlewares.add(JSONErrorMiddleware())
        if let page = Bundle.module.url(forResource: "Public", withExtension: nil) {
            router.middlewares.add(FileMiddleware(page.path, searchForIndexHtml: true))
        }
        router.get("healthz") { _, _ in json(Data(#"{"status":"ok"}"#.utf8)) }

        let protected = router.group()
        if let token = configuration.token { protected.add(middleware: TokenMiddleware(token: token)) }
        protected.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: ServerMetrics.exposition(limiter: limiter))))
        }
        protected.get("v1/tasks") { _, _ in json(try catalog.registry.listing()) }
        protected.post("v1/similarity") { request, context in
            await instrumented(task: "similarity") {
                let body = try await request.body.collect(upTo: configuration.maxBodyBytes)
                let images = try ImageUpload.images(
                    in: body, contentType: request.headers[.contentType], maxPixels: configuration.maxPixels)
                guard images.count == 2 else {
                    throw APIError(.badRequest, "two_images_needed", "send two image files as multipart/form-data, not \(images.count)")
                }
                let answer = try await limiter.run {
                    var options = EmbedTask.Options()
                    options.threads = configuration.threads
                    let task = try EmbedTask(options: options)
                    let first = try task.output(for: images[0].image).embeddings[0]
                    let second = try task.output(for: images[1].image).embeddings[0]
                    let cosine = try ImageEmbedder.cosineSimilarity(first, second)
                    return ["cosineSimilarity": cosine, "featurePrintDistance": (max(0, 2 - 2 * cosine)).squareRoot()]
                }
                return json(try JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys]))
            }
        }
        protected.post("v1/:task") { request, context in
            let name = context.parameters.get("task") ?? ""
            return await instrumented(task: name) {
                let task = try catalog.task(named: name, query: queryItems(request))
                let body = try await request.body.collect(upTo: configuration.maxBodyBytes)
                let images = try ImageUpload.images(
                    in: body, contentType: request.headers[.contentType], maxPixels: configuration.maxPixels)
                guard images.count == 1 else {
                    throw APIError(.badRequest, "one_image_needed", "send one image, not \(images.count)")
                }
                let image = images[0].image
                return json(try await limiter.run { try task.outputJSON(for: image) })
            }
        }
        protected.ws("v1/stream/:task") { request, context in
            // Refuse unknown tasks and bad options before upgrading, with a JSON error.
            _ = try catalog.task(named: context.parameters.get("task") ?? "", query: queryItems(request))
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                throw APIError(
                    HTTPResponse.Status(code: 426, reasonPhrase: "Upgrade Required"), "upgrade_required",
                    "GET /v1/stream/{task} is a WebSocket: connect with Upgrade: websocket")
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            let session = StreamSession(
                catalog: catalog, taskName: context.requestContext.parameters.get("task") ?? "",
                query: queryItems(context.request), maxFrameBytes: configuration.maxFrameBytes,
                maxPixels: configuration.maxPixels, logger: context.logger)
            try await session.run(inbound: inbound, outbound: outbound)
        }
        return router
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

/// Lets a request through only with the service's token: `Authorization: Bearer TOKEN`, or
/// `?token=TOKEN` for browsers' WebSockets, which cannot set headers.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let header = request.headers[.authorization]
        let query = request.uri.queryParameters.get("token").map { String($0) }
        guard Self.matches(header, "Bearer " + token) || Self.matches(query, token) else {
            var error = APIError(.unauthorized, "unauthorized", "this service needs its token: Authorization: Bearer TOKEN")
            error.headers[.wwwAuthenticate] = "Bearer"
            throw error
        }
        return try await next(request, context)
    }

    /// Compares in time that depends only on the lengths, not on where the texts differ.
    static func matches(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        let (a, b) = (Array(given.utf8), Array(expected.utf8))
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
