import Foundation
import Logging
import NIOCore
import SwiftVision

/// One source run in this process, as `swiftvision watch` runs it: the same decoding, pacing, reconnects,
/// events and signed webhooks as a source of the service, for one URL given by the person at the
/// keyboard (any file they can read, `rtsp://…` or `camera:N`; webhooks to any `http://` host).
public final class SourceWatch: Sendable {
    private let runner: SourceRunner
    private let outbox: WebhookOutbox?

    /// Why a source of task `name` watching `phrases` would make no event at all (its task's output makes
    /// none, or a `text` source watches no phrase), naming the tasks that make them; nil when it can.
    public static func whyNoEvents(forTask name: String, phrases: [String]) -> String? {
        if EventTracker.makesEvents(forTask: name, phrases: phrases) { return nil }
        if name == "text" { return "a text source makes events (text.matched) only for the phrases it watches: give --match PHRASE" }
        let tasks = EventTracker.eventTasks.joined(separator: ", ")
        return "\(name) makes no events; the tasks that make them are \(tasks), and text with --match PHRASE"
    }

    /// Checks the arguments and makes the task; ``start()`` starts reading. `options` is the task's
    /// options as a JSON object; `match`, a text source's watched phrases; each event goes to `onEvent` as
    /// its JSON, on the source's threads.
    public init(
        url: String, task: String, options: String?, fps: Double, loop: Bool, match: [String] = [], webhookURL: String?,
        webhookSecret: String?, threads: Int?, logger: Logger, onEvent: @escaping @Sendable (String) -> Void
    ) throws {
        let location = url.contains(":") ? url : "file://" + URL(fileURLWithPath: url).standardizedFileURL.path
        var body: [String: JSONValue] = ["url": .string(location), "task": .string(task), "fps": .number(fps), "loop": .bool(loop)]
        if let options {
            guard let parsed = try? JSONDecoder().decode(JSONValue.self, from: Data(options.utf8)) else {
                throw APIError.badOption("--options must be a JSON object")
            }
            body["options"] = parsed
        }
        if !match.isEmpty { body["match"] = .array(match.map { .string($0) }) }
        if webhookURL != nil || webhookSecret != nil {
            body["webhook"] = .object(["url": .string(webhookURL ?? ""), "secret": .string(webhookSecret ?? "")])
        }
        let spec = try SourceManager.spec(from: ByteBuffer(bytes: try serviceEncoder.encode(body)), id: "watch")
        let policy = SourcePolicy(root: URL(fileURLWithPath: "/"), webhookHosts: nil, cameraHosts: nil)
        let checkedLocation = try policy.check(spec.url)
        _ = try spec.webhook?.validated(allowedHosts: nil)
        let served = try waitFor { try await TaskCatalog(threads: threads).task(named: spec.task, query: [], overrides: spec.options) }
        SourceManager.boundStreamTimeouts()
        outbox = spec.webhook == nil ? nil : WebhookOutbox(file: nil, deadLetters: nil, logger: logger)
        runner = SourceRunner(
            spec: spec, location: checkedLocation, limiter: RequestLimiter(limit: 1, queueLimit: 0), outbox: outbox, logger: logger,
            onEvents: { events in
                for event in events { onEvent(String(decoding: event.encoded(), as: UTF8.self)) }
            }, makeTask: { served })
    }

    /// Starts reading on a thread of its own.
    public func start() {
        runner.start()
    }

    /// Stops after the frame in hand; tracks still present leave.
    public func stop() {
        runner.stop()
    }

    /// Waits up to `timeout` for the source to end (a file without `loop`, or after ``stop()``); whether it did.
    public func waitUntilFinished(timeout: Duration) -> Bool {
        runner.waitUntilFinished(timeout: timeout)
    }

    /// Webhook posts not yet delivered.
    public var undelivered: Int {
        outbox?.waiting ?? 0
    }

    /// Why the source failed (its file is no video), or nil.
    public var failure: String? {
        let status = runner.current
        return status.state == "failed" ? status.lastError ?? "the source failed" : nil
    }

    /// The source's state and counters, as `GET /v1/sources/{id}` shows them, as JSON.
    public var statusJSON: String {
        String(decoding: (try? serviceEncoder.encode(runner.current)) ?? Data(), as: UTF8.self)
    }
}
