import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import SwiftVision
import Synchronization

/// The sources the service runs, added and removed at run time and kept in the operator's sources file
/// (`--sources`), so that they come back after a restart. Their webhook posts wait in an outbox beside
/// it (`FILE.outbox.jsonl`, dead letters in `FILE.dead-letters.jsonl`).
final class SourceManager: Sendable {
    let file: URL
    let policy: SourcePolicy
    let limit: Int
    let outbox: WebhookOutbox
    private let catalog: TaskCatalog
    private let limiter: RequestLimiter
    private let logger: Logger
    private let runners = Mutex<[String: SourceRunner]>([:])
    /// Adds and removals, one at a time: each rewrites the file.
    private let changes = Mutex<Int>(0)

    init(file: URL, configuration: ServerConfiguration, catalog: TaskCatalog, limiter: RequestLimiter, logger: Logger) {
        self.file = file
        policy = SourcePolicy(
            root: configuration.sourceRoot, webhookHosts: configuration.webhookHosts, cameraHosts: configuration.cameraHosts)
        limit = configuration.maxSources
        self.catalog = catalog
        self.limiter = limiter
        self.logger = logger
        outbox = WebhookOutbox(
            file: URL(fileURLWithPath: file.path + ".outbox.jsonl"), deadLetters: URL(fileURLWithPath: file.path + ".dead-letters.jsonl"),
            logger: logger)
        SourceManager.boundStreamTimeouts()
    }

    /// Starts the sources of the file; one that no longer passes the checks (its folder was taken off) is
    /// logged and left out, one whose task cannot be made shows it as its `lastError`.
    func restore() {
        guard let data = try? Data(contentsOf: file) else { return }
        guard let specs = try? JSONDecoder().decode([SourceSpec].self, from: data) else {
            logger.error("the sources file is not a JSON array of sources; starting without it", metadata: ["file": "\(file.path)"])
            return
        }
        for spec in specs.prefix(limit) {
            do {
                try start(spec) { [catalog] in try await catalog.task(named: spec.task, query: [], overrides: spec.options) }
            } catch {
                logger.error("source not restored", metadata: ["source": "\(spec.id)", "error": "\(error)"])
            }
        }
    }

    /// Adds the source described by the JSON object `body` and returns it.
    func add(_ body: ByteBuffer) async throws -> SourceSpec {
        let spec = try Self.spec(from: body, id: Self.newID())
        guard runners.withLock({ $0.count }) < limit else {
            throw APIError(.serviceUnavailable, "too_many_sources", "the service runs \(limit) sources, its most (--max-sources)")
        }
        // The URL, webhook and options are checked, and the models loaded, before the answer.
        _ = try policy.check(spec.url)
        _ = try spec.webhook?.validated(allowedHosts: policy.webhookHosts)
        let task = try await catalog.task(named: spec.task, query: [], overrides: spec.options)
        try start(spec) { task }
        try save()
        return spec
    }

    /// Stops and forgets source `id`; false when there is none.
    func remove(_ id: String) throws -> Bool {
        guard let runner = runners.withLock({ $0.removeValue(forKey: id) }) else { return false }
        runner.stop()
        try save()
        logger.info("source removed", metadata: ["source": "\(id)"])
        return true
    }

    /// Source `id`'s runner.
    func runner(_ id: String) -> SourceRunner? {
        runners.withLock { $0[id] }
    }

    /// Every source's runner, oldest first.
    var all: [SourceRunner] {
        runners.withLock { Array($0.values) }.sorted { $0.spec.id < $1.spec.id }
    }

    private func start(_ spec: SourceSpec, task: @escaping @Sendable () async throws -> any ServedTask) throws {
        let location = try policy.check(spec.url)
        let webhook = try spec.webhook?.validated(allowedHosts: policy.webhookHosts)
        var checked = spec
        checked.webhook = webhook
        let runner = SourceRunner(spec: checked, location: location, limiter: limiter, outbox: outbox, logger: logger, makeTask: task)
        let added = runners.withLock { runners -> Bool in
            guard runners.count < limit, runners[spec.id] == nil else { return false }
            runners[spec.id] = runner
            return true
        }
        guard added else {
            throw APIError(.serviceUnavailable, "too_many_sources", "the service runs \(limit) sources, its most (--max-sources)")
        }
        runner.start()
        logger.info("source started", metadata: ["source": "\(spec.id)", "task": "\(spec.task)"])
    }

    private func save() throws {
        let specs = all.map(\.spec)
        try changes.withLock { _ in
            do {
                try PrivateFile.write(try serviceEncoder.encode(specs), to: file)
            } catch {
                throw APIError(.internalServerError, "sources_not_saved", "the service cannot write its sources file")
            }
        }
    }

    /// A source from a request's JSON: `url`, `task`, optional `options`, `fps`, `loop`, `webhook` and (for `text`) `match`.
    static func spec(from body: ByteBuffer, id: String) throws -> SourceSpec {
        let object: [String: JSONValue]
        do {
            guard case .object(let decoded) = try JSONDecoder().decode(JSONValue.self, from: Data(buffer: body)) else {
                throw APIError(.badRequest, "bad_source", "the body must be a JSON object")
            }
            object = decoded
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError(.badRequest, "bad_source", "the body is not JSON")
        }
        let known: Set<String> = ["url", "task", "options", "fps", "loop", "webhook", "match"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw APIError(.badRequest, "bad_source", "a source has no field \(unknown.prefix(64)); its fields: \(known.sorted().joined(separator: ", "))")
        }
        guard case .string(let url) = object["url"] else { throw APIError(.badRequest, "bad_source", "url must be a string") }
        guard case .string(let task) = object["task"] else { throw APIError(.badRequest, "bad_source", "task must be a string") }
        guard TaskRegistry.standard.entry(named: task) != nil else { throw APIError.unknownTask(String(task.prefix(64))) }
        var options: [String: JSONValue] = [:]
        switch object["options"] {
        case nil, .null: break
        case .object(let given): options = given
        default: throw APIError(.badRequest, "bad_source", "options must be a JSON object")
        }
        var fps = SourceSpec.defaultFPS
        switch object["fps"] {
        case nil, .null: break
        case .number(let given) where SourceSpec.fpsRange.contains(given): fps = given
        default:
            throw APIError(
                .badRequest, "bad_source",
                "fps must be a number in \(SourceSpec.fpsRange.lowerBound)…\(Int(SourceSpec.fpsRange.upperBound))")
        }
        var loop = false
        switch object["loop"] {
        case nil, .null: break
        case .bool(let given): loop = given
        default: throw APIError(.badRequest, "bad_source", "loop must be true or false")
        }
        var webhook: WebhookTarget?
        switch object["webhook"] {
        case nil, .null: break
        case .object(let given):
            guard case .string(let target) = given["url"], case .string(let secret) = given["secret"], given.count == 2 else {
                throw APIError(.badRequest, "bad_webhook", "webhook must be {\"url\": \"http://…\", \"secret\": \"…\"}")
            }
            webhook = WebhookTarget(url: target, secret: secret)
        default: throw APIError(.badRequest, "bad_webhook", "webhook must be {\"url\": \"http://…\", \"secret\": \"…\"}")
        }
        var match: [String]?
        switch object["match"] {
        case nil, .null: break
        case .array(let given) where task == "text" && (1...EventTracker.phraseLimit).contains(given.count):
            match = try given.map { phrase in
                guard case .string(let text) = phrase, (1...100).contains(text.trimmingCharacters(in: .whitespaces).count) else {
                    throw APIError(.badRequest, "bad_source", "match takes words or phrases of 1 to 100 characters")
                }
                return text.trimmingCharacters(in: .whitespaces)
            }
        default:
            throw APIError(
                .badRequest, "bad_source", "match takes 1 to \(EventTracker.phraseLimit) words or phrases, for a text source")
        }
        return SourceSpec(id: id, url: url, task: task, options: options, fps: fps, loop: loop, webhook: webhook, match: match)
    }

    private static let counter = Atomic<Int>(0)

    /// `s` + the time in milliseconds and a counter, in base 36: unique in this process and the next.
    static func newID() -> String {
        "s" + String(WebhookOutbox.nowMilliseconds(), radix: 36) + String(counter.add(1, ordering: .relaxed).newValue, radix: 36)
    }

    /// FFmpeg's network reads give up after 5 s without data (its default waits forever on a stalled
    /// RTSP server), so that a stalled stream ends and is reconnected; an operator's own setting wins.
    static func boundStreamTimeouts() {
        setenv("OPENCV_FFMPEG_CAPTURE_OPTIONS", "rtsp_transport;tcp|timeout;5000000", 0)
    }
}

/// `POST /v1/sources`, `GET /v1/sources`, `GET` and `DELETE /v1/sources/{id}`, and the server-sent
/// events of `GET /v1/sources/{id}/events`. Without `--sources` every one answers 403 `sources_disabled`.
enum SourceRoutes {
    /// The largest body of `POST /v1/sources`.
    static let largestBody = 64 * 1024
    /// Seconds between the event stream's keep-alive comments.
    static let keepAliveSeconds = 15

    static func add(
        to router: RouterGroup<ServiceRequestContext>, catalog: TaskCatalog, limiter: RequestLimiter, configuration: ServerConfiguration
    ) {
        let manager = configuration.sourcesFile.map {
            SourceManager(
                file: $0, configuration: configuration, catalog: catalog, limiter: limiter, logger: Logger(label: "swiftvision.sources"))
        }
        manager?.restore()
        let enabled: @Sendable () throws -> SourceManager = {
            guard let manager else {
                throw APIError(.forbidden, "sources_disabled", "the service runs no sources: the operator enables them with --sources FILE")
            }
            return manager
        }
        router.post("v1/sources") { request, context in
            let manager = try enabled()
            let body = try await VisionService.body(of: request, upTo: largestBody, on: context.channel)
            let spec = try await manager.add(body)
            let answer = try serviceEncoder.encode(SourceAnswer(spec: spec, status: manager.runner(spec.id)?.current ?? SourceStatus()))
            return Response(
                status: .created, headers: [.contentType: "application/json", .location: "/v1/sources/\(spec.id)"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer)))
        }
        router.get("v1/sources") { _, _ in
            let manager = try enabled()
            return VisionService.json(try serviceEncoder.encode(manager.all.map { SourceAnswer(spec: $0.spec, status: $0.current) }))
        }
        router.get("v1/sources/:id") { _, context in
            let runner = try find(try enabled(), context)
            return VisionService.json(try serviceEncoder.encode(SourceAnswer(spec: runner.spec, status: runner.current)))
        }
        router.delete("v1/sources/:id") { _, context in
            let manager = try enabled()
            guard try manager.remove(context.parameters.get("id") ?? "") else { throw notFound(context) }
            return Response(status: .noContent)
        }
        router.get("v1/sources/:id/events") { _, context in
            let runner = try find(try enabled(), context)
            guard let events = runner.hub.subscribe() else {
                throw APIError(
                    .serviceUnavailable, "too_many_listeners", "source \(runner.spec.id) has \(EventHub.listenerLimit) listeners, its most")
            }
            return Response(
                status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                body: ResponseBody { writer in
                    let (lines, sink) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(EventHub.bufferLimit))
                    let forward = Task {
                        for await event in events {
                            sink.yield("id: \(event.id)\nevent: \(event.type)\ndata: \(String(decoding: event.encoded(), as: UTF8.self))\n\n")
                        }
                        sink.finish()
                    }
                    let keepAlive = Task {
                        while !Task.isCancelled {
                            try? await Task.sleep(for: .seconds(keepAliveSeconds))
                            sink.yield(": keep-alive\n\n")
                        }
                    }
                    defer {
                        forward.cancel()
                        keepAlive.cancel()
                    }
                    sink.yield(": events of source \(runner.spec.id)\n\n")
                    for await line in lines { try await writer.write(ByteBuffer(string: line)) }
                    try await writer.finish(nil)
                })
        }
    }

    private static func find(_ manager: SourceManager, _ context: ServiceRequestContext) throws -> SourceRunner {
        guard let runner = manager.runner(context.parameters.get("id") ?? "") else { throw notFound(context) }
        return runner
    }

    private static func notFound(_ context: ServiceRequestContext) -> APIError {
        APIError(.notFound, "unknown_source", "no source \((context.parameters.get("id") ?? "").prefix(64))")
    }
}

/// A source as the API shows it: what it is (the webhook's secret and the URL's password left out) and
/// its counters.
struct SourceAnswer: Encodable {
    let spec: SourceSpec
    let status: SourceStatus

    private enum Keys: String, CodingKey { case id, url, task, options, fps, loop, webhook, match }

    func encode(to encoder: any Encoder) throws {
        var shown = status
        shown.lastError = status.lastError.map(spec.hidingPassword)
        try shown.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(spec.id, forKey: .id)
        try container.encode(spec.hidingPassword(in: spec.url), forKey: .url)
        try container.encode(spec.task, forKey: .task)
        try container.encode(spec.options, forKey: .options)
        try container.encode(spec.fps, forKey: .fps)
        try container.encode(spec.loop, forKey: .loop)
        try container.encodeIfPresent(spec.webhook.map { ["url": $0.url] }, forKey: .webhook)
        try container.encodeIfPresent(spec.match, forKey: .match)
    }
}
