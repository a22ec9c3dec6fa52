import Foundation
import HummingbirdWebSocket
import Logging
import NIOCore
import SwiftVision
import Synchronization

/// One live-stream WebSocket: binary messages are frames (JPEG), a text message before a frame may
/// carry `{"timestampMs": N, …options}`; each processed frame is answered with the task's JSON plus
/// `frame`, `timestampMs`, `dropped` and, when something happened, `events` (as a source's: an object
/// entered or left, a face appeared or left, a barcode was read, a person appeared or left; in stream
/// time). One frame is in flight; the newest frame that arrives meanwhile waits, older ones are dropped
/// and counted. New options (a new seed box) restart the task.
final class StreamSession: Sendable {
    let catalog: TaskCatalog
    let taskName: String
    let query: [(String, String)]
    let maxFrameBytes: Int
    let maxPixels: Int
    let limiter: RequestLimiter
    let logger: Logger
    /// Whether the frame in flight holds one of the limiter's slots.
    private let holdsSlot = Atomic<Bool>(false)

    /// The session's accounting of frames: each frame is answered once, with a result or an error, or
    /// counted once as dropped in the next result's `dropped`. It takes the same memory however many
    /// frames a client sends: refused frames are counted, not listed (a set of them grew by 13 bytes a
    /// frame while no result came, without bound).
    private struct Ledger {
        /// Frames answered with an error straight away (undecodable, refused timestamp), all told.
        var refused = 0
        /// The frame of the latest result, and how many frames had been refused when it was sent.
        var lastResult = -1, refusedBeforeLastResult = 0
        /// Frames answered with a result, and frames dropped.
        var answered = 0, dropped = 0
    }
    private let ledger = Mutex(Ledger())
    /// The stream's events, by tracking ID, value or presence, in the frames' own time.
    private let tracker = Mutex(EventTracker(source: "stream", runStartMs: WebhookOutbox.nowMilliseconds()))
    /// Whether the task's answers can hold events; the others are sent as encoded, not read back.
    private let makesEvents: Bool

    init(
        catalog: TaskCatalog, taskName: String, query: [(String, String)], maxFrameBytes: Int, maxPixels: Int,
        limiter: RequestLimiter, logger: Logger
    ) {
        self.catalog = catalog
        self.taskName = taskName
        self.query = query
        self.maxFrameBytes = maxFrameBytes
        self.maxPixels = maxPixels
        self.limiter = limiter
        self.logger = logger
        makesEvents = EventTracker.makesEvents(forTask: taskName)
    }

    /// Serves the connection until the client closes it.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        logger.info("stream opened", metadata: ["task": "\(taskName)"])
        defer {
            let counts = ledger.withLock { ($0.lastResult + 1, $0.answered, $0.dropped) }
            logger.info(
                "stream closed",
                metadata: ["task": "\(taskName)", "frames": "\(counts.0)", "results": "\(counts.1)", "dropped": "\(counts.2)"])
        }
        let (answers, answer) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(64))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in answers { try await outbound.writeTextMessage(text) }
            }
            var stream: SessionStream?
            defer { stream?.live.close() }
            var overrides: [String: JSONValue] = [:]
            var timestamp: Int?
            var frame = 0
            do {
                stream = try await makeStream(overrides: overrides, answer: answer)
            } catch {
                answer.yield(Self.errorText(error, frame: nil))
            }
            for try await message in inbound.messages(maxSize: maxFrameBytes) {
                switch message {
                case .text(let text):
                    do {
                        guard case .object(var object) = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
                            throw APIError.badOption("a text message must be a JSON object")
                        }
                        if let value = object.removeValue(forKey: "timestampMs") {
                            timestamp = try OptionDecoding.timestamp(value)
                        }
                        if !object.isEmpty {
                            overrides.merge(object) { $1 }
                            stream?.live.close()
                            stream = nil
                            stream = try await makeStream(overrides: overrides, answer: answer)
                        }
                    } catch {
                        answer.yield(Self.errorText(error is DecodingError ? APIError.badOption("the text message is not JSON") : error, frame: nil))
                    }
                case .binary(let buffer):
                    defer {
                        frame += 1
                        timestamp = nil
                    }
                    guard let stream else {
                        // Answered with an error, like a frame that does not decode: never dropped as well.
                        ledger.withLock { $0.refused += 1 }
                        answer.yield(Self.errorText(APIError.badOption("the stream has no valid options"), frame: frame))
                        continue
                    }
                    do {
                        // The frame is decoded when its turn comes: one that flow limiting drops never is.
                        let options = ImageDecodingOptions(limits: ImageLimits(maximumPixelCount: maxPixels))
                        let bytes = Data(buffer: buffer)
                        let sent = SentFrame(index: frame, refusedBefore: ledger.withLock { $0.refused })
                        let given = timestamp
                        try stream.frames.table.withLock { frames in
                            let used = try stream.live.send(timestampInMilliseconds: given) { [self] in
                                // The frame's turn: decoded outside the service's inference slots, then it counts
                                // against them until its result.
                                let image = try VisionImage(data: bytes, options: options)
                                limiter.takeFrameSlot()
                                holdsSlot.store(true, ordering: .relaxed)
                                return image
                            }
                            frames[used] = sent
                        }
                    } catch {
                        ledger.withLock { $0.refused += 1 }
                        answer.yield(Self.errorText(error, frame: frame))
                    }
                }
            }
            stream?.live.close()
            stream = nil
            answer.finish()
            try await group.waitForAll()
        }
    }

    /// A live stream of the task and the frames sent to it, by timestamp.
    private final class SessionStream: Sendable {
        let live: any LiveStream
        let frames: FrameTable

        init(live: any LiveStream, frames: FrameTable) {
            self.live = live
            self.frames = frames
        }
    }

    private func makeStream(overrides: [String: JSONValue], answer: AsyncStream<String>.Continuation) async throws -> SessionStream {
        let task = try await catalog.task(named: taskName, query: query, overrides: overrides)
        let name = taskName
        let frames = FrameTable()
        let live = task.makeLiveStream { [self] result in
            if holdsSlot.exchange(false, ordering: .relaxed) { limiter.releaseFrameSlot() }
            guard let sent = frames.take(result.timestampInMilliseconds) else { return }
            let index = sent.index
            // A frame of a stream replaced by new options counts as dropped in the next result.
            if case .failure(VisionTaskError.closed) = result.output { return }
            // Frames of this stream are answered in order; a result older than the latest one (a stream
            // replaced by new options finishing its last frame late) was already counted as dropped, as
            // was a frame that a replaced stream never processed.
            let dropped = ledger.withLock { ledger -> Int? in
                guard index > ledger.lastResult else { return nil }
                // Frames are sent and refused in order, so those between the two results that were
                // refused are the ones refused between their sending.
                let skipped = index - ledger.lastResult - 1 - (sent.refusedBefore - ledger.refusedBeforeLastResult)
                ledger.lastResult = index
                ledger.refusedBeforeLastResult = sent.refusedBefore
                ledger.answered += 1
                ledger.dropped += skipped
                return skipped
            }
            guard let dropped else { return }
            switch result.output {
            case .success(let output):
                ServerMetrics.recordFrame(task: name, dropped: dropped)
                let text = Self.frameText(output, frame: index, timestamp: result.timestampInMilliseconds, dropped: dropped)
                answer.yield(makesEvents ? withEvents(text, at: Int64(result.timestampInMilliseconds)) : text)
            case .failure(let error):
                ServerMetrics.recordFrame(task: name, dropped: dropped)
                answer.yield(Self.errorText(error, frame: index))
            }
        }
        return SessionStream(live: live, frames: frames)
    }

    /// `text`, a frame's answer, with the events its output makes, if any.
    private func withEvents(_ text: String, at time: Int64) -> String {
        guard var object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] else { return text }
        let events = tracker.withLock { $0.events(for: object, at: time) }
        guard !events.isEmpty,
            let encoded = try? JSONSerialization.jsonObject(with: serviceEncoder.encode(events))
        else { return text }
        object["events"] = encoded
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// The task's JSON object with `frame`, `timestampMs` and `dropped`, encoded once.
    static func frameText(_ output: some Encodable, frame: Int, timestamp: Int, dropped: Int) -> String {
        let line = TaskLine(frame: frame, timestampMs: timestamp, dropped: dropped, output: output)
        do {
            return String(decoding: try serviceEncoder.encode(line), as: UTF8.self)
        } catch {
            return errorText(error, frame: frame)
        }
    }

    /// `{"error":{"code","message"},"frame":N}`.
    static func errorText(_ error: any Error, frame: Int?) -> String {
        let answer = APIError.from(error)
        var object: [String: JSONValue] = ["error": .object(["code": .string(answer.code), "message": .string(answer.message)])]
        if let frame { object["frame"] = .number(Double(frame)) }
        return (try? serviceEncoder.encode(JSONValue.object(object))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}

/// The frames sent to one live stream, by the timestamp they were sent with.
private final class FrameTable: Sendable {
    let table = Mutex<[Int: SentFrame]>([:])

    /// The frame sent with `timestamp`, forgotten with every earlier one.
    func take(_ timestamp: Int) -> SentFrame? {
        table.withLock { table in
            let index = table[timestamp]
            table = table.filter { $0.key > timestamp }
            return index
        }
    }
}
