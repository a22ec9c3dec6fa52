import Foundation
import Logging
import SwiftVision
import Synchronization

/// What a source is, as the client gave it and the sources file keeps it.
struct SourceSpec: Codable, Sendable, Equatable {
    var id: String
    /// `file:///…` (under the operator's `--source-root`), `rtsp://…` or `camera:N`.
    var url: String
    /// The task its frames go through.
    var task: String
    /// The task's options, as a stream's text message gives them.
    var options: [String: JSONValue]
    /// Frames per second sent to the task, at most.
    var fps: Double
    /// Whether a file starts again at its end.
    var loop: Bool
    var webhook: WebhookTarget?
    /// Words or phrases whose appearance in a `text` source's recognised text makes a `text.matched` event.
    var match: [String]?

    /// The range `fps` must lie in, and its default.
    static let fpsRange = 0.1...60.0, defaultFPS = 5.0
    /// The highest camera number.
    static let highestCamera = 63

    /// `text` (the URL, or an error that names it) with the URL's password, if any, shown as `***`:
    /// cameras' RTSP URLs often carry one.
    func hidingPassword(in text: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return text }
        components.password = "***"
        return text.replacingOccurrences(of: url, with: components.string ?? "")
    }
}

/// Checks of what a client asks a source to read: `rtsp://` and `rtsps://` streams, files under the
/// operator's folder, and cameras `camera:0`…`camera:63`. Nothing else (no `http:`, no other file).
struct SourcePolicy: Sendable {
    /// The folder `file://` sources must lie in, symbolic links resolved; nil refuses every file.
    var root: URL?
    /// Hosts webhooks may post to; nil allows any (the command line's own `watch`).
    var webhookHosts: [String]?
    /// Hosts `rtsp://` sources may be read from; nil allows any (the command line's own `watch`).
    var cameraHosts: [String]?

    /// The URL's kind and where to open it, or a 400/403 error saying why not.
    func check(_ text: String) throws -> SourceLocation {
        guard text.utf8.count <= 2048, !text.contains(where: { $0.isNewline || $0 == "\0" }) else {
            throw APIError(.badRequest, "bad_source", "url must be at most 2048 bytes on one line")
        }
        if text.hasPrefix("camera:") {
            guard let index = Int(text.dropFirst("camera:".count)), (0...SourceSpec.highestCamera).contains(index) else {
                throw APIError(.badRequest, "bad_source", "a camera is camera:N with N in 0…\(SourceSpec.highestCamera)")
            }
            return .camera(index)
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw APIError(.badRequest, "bad_source", "url must be file:///…, rtsp://… or camera:N")
        }
        switch scheme {
        case "rtsp", "rtsps":
            guard let host = url.host?.lowercased(), !host.isEmpty else {
                throw APIError(.badRequest, "bad_source", "an rtsp:// URL needs a host")
            }
            let port = url.port ?? (scheme == "rtsps" ? 322 : 554)
            if let cameraHosts, !HostList(cameraHosts).allows(host, port: port) {
                throw APIError(
                    .forbidden, "source_not_allowed",
                    "the service does not read streams from \(host):\(port): the operator allows cameras with --allow-camera-host")
            }
            return .stream(url)
        case "file":
            guard let root else {
                throw APIError(.forbidden, "source_not_allowed", "the service reads no files: the operator allows a folder with --source-root")
            }
            let resolved = URL(fileURLWithPath: url.path).standardizedFileURL.resolvingSymlinksInPath()
            let base = root.path.hasSuffix("/") ? root.path : root.path + "/"
            guard resolved.path.hasPrefix(base) else {
                throw APIError(.forbidden, "source_not_allowed", "files must lie in the folder the operator gave with --source-root")
            }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isFolder), !isFolder.boolValue else {
                throw APIError(.badRequest, "bad_source", "no such file: \(url.path)")
            }
            return .file(resolved)
        default:
            throw APIError(.badRequest, "bad_source", "url must be file:///…, rtsp://… or camera:N, not \(scheme):")
        }
    }
}

/// Where a source's frames come from.
enum SourceLocation: Sendable {
    case file(URL)
    case stream(URL)
    case camera(Int)

    /// Whether frames come at the source's own pace (a camera or a stream), not read ahead from a file.
    var isLive: Bool {
        if case .file = self { false } else { true }
    }

    func open() throws -> VideoReader {
        switch self {
        case .file(let url), .stream(let url): try VideoReader(url: url)
        case .camera(let index): try VideoReader(camera: index)
        }
    }
}

/// Counters of one source, for `GET /v1/sources`.
struct SourceStatus: Codable, Sendable {
    /// `starting`, `running`, `reconnecting`, `ended` (a file without `loop`), `failed` (its task could not
    /// be made, or its file is no video) or `stopped`.
    var state = "starting"
    var framesIn = 0, framesOut = 0, framesDropped = 0, reconnects = 0, events = 0
    var fpsIn = 0.0, fpsOut = 0.0
    var lastError: String?
    /// When the last frame was decoded, in milliseconds since 1970.
    var lastFrameMs: Int64?
}

/// One source running: a thread that decodes (``SourceLocation/open()``), paces files to their frame
/// rate, sends at most `fps` frames a second to the task's live stream (one frame in flight, the newest
/// waiting, the rest dropped and counted; each frame holds one of the service's inference slots), turns
/// results into events, and reopens the source with exponential backoff and seeded jitter when it ends,
/// stalls or fails.
final class SourceRunner: Sendable {
    let spec: SourceSpec
    let hub = EventHub()
    private let location: SourceLocation
    private let makeTask: @Sendable () async throws -> any ServedTask
    private let limiter: RequestLimiter
    private let outbox: WebhookOutbox?
    private let onEvents: @Sendable ([SourceEvent]) -> Void
    private let logger: Logger
    private let status = Mutex(SourceStatus())
    private let tracker: Mutex<EventTracker>
    /// Inference slots taken by frames whose results have not come yet.
    private let slotsHeld = Mutex(0)
    /// Which opening of the source the live stream in use belongs to: results of an earlier one are ignored.
    private let opening = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let rates = Mutex(RateWindow())

    /// The first reconnect's delay and the longest, in seconds.
    static let firstRetry = 0.5, longestRetry = 30.0

    /// A runner of `spec`, whose task `makeTask` makes on the runner's thread (a restored source's task may
    /// load models: the service starts serving meanwhile).
    init(
        spec: SourceSpec, location: SourceLocation, limiter: RequestLimiter, outbox: WebhookOutbox?, logger: Logger,
        onEvents: @escaping @Sendable ([SourceEvent]) -> Void = { _ in }, makeTask: @escaping @Sendable () async throws -> any ServedTask
    ) {
        self.spec = spec
        self.location = location
        self.makeTask = makeTask
        self.limiter = limiter
        self.outbox = outbox
        self.logger = logger
        self.onEvents = onEvents
        tracker = Mutex(EventTracker(source: spec.id, runStartMs: WebhookOutbox.nowMilliseconds(), phrases: spec.match ?? []))
    }

    /// Starts the decoding thread.
    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "SwiftVision source \(spec.id)"
        thread.start()
    }

    /// Asks the thread to stop after its current frame (or its current wait for the source) and ends the
    /// event streams; tracks still present leave.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        wake.signal()
    }

    /// Waits up to `timeout` for the thread to end; whether it did.
    func waitUntilFinished(timeout: Duration) -> Bool {
        finished.wait(timeout: .now() + .milliseconds(Int(timeout.seconds * 1000))) == .success
    }

    /// The source's counters now.
    var current: SourceStatus {
        var now = status.withLock { $0 }
        (now.fpsIn, now.fpsOut) = rates.withLock { $0.rates() }
        return now
    }

    private func update(_ change: (inout SourceStatus) -> Void) {
        status.withLock { change(&$0) }
    }

    private func run() {
        let start = ContinuousClock.now
        var failures = 0
        var jitter = SeededGenerator(seed: Self.seed(spec.id))
        var lastSent = Int.min
        let interval = Int((1000 / spec.fps).rounded())
        let task: any ServedTask
        do {
            task = try waitFor(makeTask)
        } catch {
            update {
                $0.state = "failed"
                $0.lastError = APIError.from(error).message
            }
            hub.close()
            return
        }
        var live: (any LiveStream)?
        defer {
            live?.close()
            releaseSlots(all: true)
            publish(tracker.withLock { $0.finish() })
            hub.close()
            update { if $0.state != "ended" && $0.state != "failed" { $0.state = "stopped" } }
        }
        while !stopped.load(ordering: .relaxed) {
            if failures > 0 {
                update { $0.state = "reconnecting" }
                let delay = min(Self.longestRetry, Self.firstRetry * pow(2, Double(failures - 1))) * (0.8 + 0.4 * jitter.nextUnit())
                logger.warning(
                    "source reconnecting",
                    metadata: [
                        "source": "\(spec.id)", "in_seconds": "\((delay * 10).rounded() / 10)",
                        "error": "\(spec.hidingPassword(in: current.lastError ?? ""))",
                    ])
                _ = wake.wait(timeout: .now() + .milliseconds(Int(delay * 1000)))
                if stopped.load(ordering: .relaxed) { return }
                update { $0.reconnects += 1 }
            }
            let reader: VideoReader
            do {
                reader = try location.open()
            } catch {
                failures += 1
                update { $0.lastError = "\(error)" }
                // A file that is no video will not become one by waiting, as a camera that is away may come back.
                if !location.isLive {
                    update { $0.state = "failed" }
                    return
                }
                continue
            }
            update { $0.state = "running" }
            // Tracking starts afresh at each opening.
            live?.close()
            let current = opening.add(1, ordering: .relaxed).newValue
            let stream = task.makeLiveStream { [self] result in
                releaseSlots(all: false)
                if opening.load(ordering: .relaxed) == current { deliver(result) }
            }
            live = stream
            let opened = ContinuousClock.now
            var gotFrame = false
            while !stopped.load(ordering: .relaxed), let frame = reader.next() {
                gotFrame = true
                if !location.isLive {
                    // A file plays at its own rate, as a camera would.
                    let due = opened + .milliseconds(frame.timestampInMilliseconds)
                    if due > .now, wake.wait(timeout: .now() + .milliseconds(Int((due - .now).seconds * 1000))) == .success { return }
                }
                let timestamp = (ContinuousClock.now - start).wholeMilliseconds
                update {
                    $0.framesIn += 1
                    $0.lastFrameMs = WebhookOutbox.nowMilliseconds()
                }
                rates.withLock { $0.count(input: true) }
                guard timestamp >= lastSent + interval, timestamp > lastSent else { continue }
                lastSent = timestamp
                let image = frame.image
                do {
                    _ = try stream.send(timestampInMilliseconds: timestamp) { [self] in
                        limiter.takeFrameSlot()
                        slotsHeld.withLock { $0 += 1 }
                        return image
                    }
                } catch {
                    update { $0.lastError = "\(error)" }
                }
            }
            if stopped.load(ordering: .relaxed) { return }
            // The stream ended or broke: what it showed has left now, not when it is back (a camera may be
            // away for minutes); the results of this opening still in flight are dropped.
            opening.add(1, ordering: .relaxed)
            publish(tracker.withLock { $0.leaveAll() })
            let error = reader.error
            if !location.isLive, gotFrame, error == nil {
                // A whole file: again from its start, or the end of the source.
                guard spec.loop else {
                    update { $0.state = "ended" }
                    return
                }
                failures = 0
                continue
            }
            update { $0.lastError = error.map { "\($0)" } ?? (gotFrame ? "the stream ended" : "the source gave no frame") }
            if !location.isLive, !gotFrame {
                update { $0.state = "failed" }
                return
            }
            failures = gotFrame ? 1 : failures + 1
        }
    }

    /// Gives back one inference slot held by a frame (a result came), or every one (the source stopped).
    private func releaseSlots(all: Bool) {
        let count = slotsHeld.withLock { held -> Int in
            let count = all ? held : min(held, 1)
            held -= count
            return count
        }
        for _ in 0..<count { limiter.releaseFrameSlot() }
    }

    private func deliver(_ result: LiveFrame) {
        update { $0.framesDropped += result.droppedFrames }
        switch result.output {
        case .success(let output):
            update { $0.framesOut += 1 }
            rates.withLock { $0.count(input: false) }
            guard EventTracker.makesEvents(forTask: spec.task, phrases: spec.match ?? []),
                let data = try? serviceEncoder.encode(AnyEncodable(output)),
                let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
            else { return }
            let time = WebhookOutbox.nowMilliseconds()
            publish(tracker.withLock { $0.events(for: object, at: time) })
        case .failure(let error):
            update { $0.lastError = "\(error)" }
        }
    }

    private func publish(_ events: [SourceEvent]) {
        guard !events.isEmpty else { return }
        update { $0.events += events.count }
        if let webhook = spec.webhook, let outbox {
            for event in events { outbox.enqueue(event, to: webhook) }
        }
        hub.publish(events)
        onEvents(events)
    }

    /// FNV-1a of the source's ID: its jitter is the same on every run, and differs between sources.
    private static func seed(_ id: String) -> UInt64 {
        id.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

/// The result of the async `work`, waited for on this thread, which must not be one of Swift's cooperative
/// threads (a source's own thread, or the command line's main thread).
func waitFor<Result: Sendable>(_ work: @escaping @Sendable () async throws -> Result) throws -> Result {
    let done = DispatchSemaphore(value: 0)
    let box = ResultBox<Result>()
    Task {
        box.value = await Swift.Result(catching: work)
        done.signal()
    }
    done.wait()
    return try box.value!.get()
}

/// A value handed from a task to the thread that waits for it, ordered by the semaphore.
private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    var value: Result<Value, any Error>?
}

extension Result where Failure == any Error {
    /// The result of the async `body`.
    init(catching body: @Sendable () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}

/// An encodable of unknown type, for encoding a task's output.
private struct AnyEncodable: Encodable {
    let value: any Encodable

    init(_ value: any Encodable) {
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}

/// Frames in and results out over the last few seconds.
private struct RateWindow {
    private var start = ContinuousClock.now
    private var inputs = 0, outputs = 0
    private var last = (0.0, 0.0)

    /// The window's length in seconds: rates are over the last two to four seconds.
    private static let length = 2.0

    mutating func count(input: Bool) {
        roll()
        if input { inputs += 1 } else { outputs += 1 }
    }

    /// Frames in and results out a second, to a tenth.
    mutating func rates() -> (Double, Double) {
        roll()
        let seconds = (ContinuousClock.now - start).seconds
        let (inputRate, outputRate) = seconds > 0.5 ? (Double(inputs) / seconds, Double(outputs) / seconds) : last
        return ((inputRate * 10).rounded() / 10, (outputRate * 10).rounded() / 10)
    }

    private mutating func roll() {
        let seconds = (ContinuousClock.now - start).seconds
        guard seconds >= 2 * Self.length else { return }
        last = (Double(inputs) / seconds, Double(outputs) / seconds)
        start = .now
        inputs = 0
        outputs = 0
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
