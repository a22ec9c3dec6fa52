import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The bench's own WebSocket client for the live stream (`GET /v1/stream/{task}`): `streams` connections,
/// each sending one JPEG as its frames the way the page does — at a camera's rate (or as fast as allowed),
/// never more than ``maxAhead`` frames beyond the one the server is working on, a camera frame that
/// comes meanwhile being skipped — and reading every answer: results with their latency, the frames
/// the server dropped (`dropped`) and the frames it refused (error answers).
enum StreamLoad {
    /// Frames a stream sends beyond the one the server is working on (the page's `MAX_AHEAD`).
    static let maxAhead = 2

    /// What one row of streams did.
    struct Outcome {
        /// Results per stream.
        var results: [Int]
        /// Frames sent, frames the server dropped as stale, frames answered with an error, and camera frames
        /// the client skipped because it was already `maxAhead` frames ahead.
        var sent = 0, dropped = 0, refused = 0, skipped = 0
        /// From each result's frame being sent to the result read, in milliseconds.
        var latencies: [Double] = []
        /// From the first frame sent to the last answer read, in seconds.
        var seconds: Double = 0
        /// Streams that could not open (refused upgrade or no connection).
        var failed = 0
    }

    /// Opens `streams` live streams at `path` on 127.0.0.1:`port` and sends `frame` on each, at
    /// `framesPerSecond` (nil: as soon as a stream is less than ``maxAhead`` ahead) for `seconds`, then
    /// waits until every frame sent is answered or dropped.
    static func run(port: Int, path: String, frame: Data, streams: Int, framesPerSecond: Double?, seconds: Double) -> Outcome {
        let message = maskedBinaryFrame(frame)
        let outcomes = Shared<[StreamOutcome]>([])
        let group = DispatchGroup()
        let start = ContinuousClock.now
        for _ in 0..<streams {
            group.enter()
            Thread {
                defer { group.leave() }
                let outcome = stream(
                    port: port, path: path, message: message, framesPerSecond: framesPerSecond, until: start + .seconds(seconds))
                outcomes.value.append(outcome)
            }.start()
        }
        group.wait()
        let all = outcomes.value
        let opened = all.filter(\.opened)
        var outcome = Outcome(results: opened.map(\.results))
        outcome.failed = all.count - opened.count
        for stream in opened {
            outcome.sent += stream.sent
            outcome.dropped += stream.dropped
            outcome.refused += stream.refused
            outcome.skipped += stream.skipped
            outcome.latencies += stream.latencies
        }
        let first = opened.compactMap(\.firstSent).min()
        let last = opened.compactMap(\.lastAnswer).max()
        if let first, let last { outcome.seconds = (last - first).inMilliseconds / 1000 }
        return outcome
    }

    /// One stream's record.
    private struct StreamOutcome {
        var opened = false
        var sent = 0, results = 0, dropped = 0, refused = 0, skipped = 0
        var latencies: [Double] = []
        var firstSent: ContinuousClock.Instant?
        var lastAnswer: ContinuousClock.Instant?
    }

    /// What the reading thread shares with the sending one.
    private final class Progress: @unchecked Sendable {
        let lock = NSLock()
        let answered = NSCondition()
        var sentAt: [ContinuousClock.Instant] = []
        /// The highest frame answered (result or error), and frames accounted for (answered or dropped).
        var lastAnswered = -1, accounted = 0
        var record = StreamOutcome()
        var closed = false
    }

    private static func stream(
        port: Int, path: String, message: Data, framesPerSecond: Double?, until deadline: ContinuousClock.Instant
    ) -> StreamOutcome {
        let connection = HTTPLoad.connect(port: port)
        guard connection >= 0 else { return StreamOutcome() }
        defer { close(connection) }
        guard let leftover = upgrade(connection, port: port, path: path) else { return StreamOutcome() }
        let progress = Progress()
        progress.record.opened = true
        let sending = NSLock()
        let readerDone = DispatchSemaphore(value: 0)
        Thread {
            var buffered = leftover
            read(connection, buffered: &buffered, into: progress, sending: sending)
            readerDone.signal()
        }.start()

        let clock = ContinuousClock()
        var next = clock.now
        var frame = 0
        while clock.now < deadline {
            if let framesPerSecond {
                // The camera's next frame.
                let wait = clock.now.duration(to: next).inMilliseconds
                if wait > 0 { Thread.sleep(forTimeInterval: wait / 1000) }
                next += .seconds(1 / framesPerSecond)
            }
            let (ahead, closed) = progress.answered.withLock { () -> (Bool, Bool) in
                // As fast as allowed: wait for an answer while the stream is as far ahead as it may be.
                while framesPerSecond == nil && !progress.closed && frame - 1 - progress.lastAnswered > maxAhead && clock.now < deadline {
                    _ = progress.answered.wait(until: Date().addingTimeInterval(0.05))
                }
                return (frame - 1 - progress.lastAnswered > maxAhead, progress.closed)
            }
            if closed { break }
            if ahead {
                if framesPerSecond != nil { progress.lock.withLock { progress.record.skipped += 1 } }
                continue
            }
            let now = clock.now
            progress.lock.withLock {
                progress.sentAt.append(now)
                if progress.record.firstSent == nil { progress.record.firstSent = now }
            }
            let sent = sending.withLock { message.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
            guard sent == message.count else { break }
            frame += 1
        }
        // Every frame sent is answered or dropped; then the stream closes.
        progress.answered.withLock {
            let patience = Date().addingTimeInterval(10)
            while !progress.closed && progress.accounted < frame && Date() < patience {
                _ = progress.answered.wait(until: patience)
            }
        }
        sending.withLock {
            let close: [UInt8] = [0x88, 0x80, 0, 0, 0, 0]
            _ = send(connection, close, close.count, Int32(MSG_NOSIGNAL))
        }
        shutdown(connection, Int32(SHUT_WR))
        _ = readerDone.wait(timeout: .now() + 5)
        return progress.lock.withLock {
            var record = progress.record
            record.sent = frame
            return record
        }
    }

    /// The upgrade handshake; the bytes read past the 101 answer's head, or nil when it was refused.
    private static func upgrade(_ connection: Int32, port: Int, path: String) -> Data? {
        let request = Data((
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: c3dpZnR2aXNpb24tYmVuY2g=\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
        let sent = request.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { return nil }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = received.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                guard head.hasPrefix("HTTP/1.1 101") else { return nil }
                return Data(received[end.upperBound...])
            }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[0..<count])
        }
    }

    /// Reads the server's messages until it closes: each text message is one frame's answer.
    private static func read(_ connection: Int32, buffered: inout Data, into progress: Progress, sending: NSLock) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var message = Data()
        defer {
            progress.answered.withLock {
                progress.closed = true
                progress.answered.broadcast()
            }
        }
        while true {
            while let (opcode, final, payload, length) = frame(in: buffered) {
                buffered.removeFirst(length)
                switch opcode {
                case 0x8: return
                case 0x9:
                    // A ping: answered with a pong carrying the same bytes (masked with a zero key).
                    let pong = Data([0x8A, 0x80 | UInt8(payload.count), 0, 0, 0, 0]) + payload
                    _ = sending.withLock { pong.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
                case 0x1, 0x0:
                    message += payload
                    if final {
                        answer(message, into: progress)
                        message = Data()
                    }
                default: break
                }
            }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            buffered.append(contentsOf: buffer[0..<count])
        }
    }

    /// Counts one answer: a result (its latency and the frames dropped before it) or an error.
    private static func answer(_ text: Data, into progress: Progress) {
        let now = ContinuousClock.now
        guard let object = (try? JSONSerialization.jsonObject(with: text)) as? [String: Any] else { return }
        let index = object["frame"] as? Int
        progress.lock.withLock {
            progress.record.lastAnswer = now
            if object["error"] != nil {
                progress.record.refused += 1
            } else if let index, index < progress.sentAt.count {
                progress.record.results += 1
                progress.record.dropped += object["dropped"] as? Int ?? 0
                progress.record.latencies.append((now - progress.sentAt[index]).inMilliseconds)
            }
        }
        progress.answered.withLock {
            if let index { progress.lastAnswered = max(progress.lastAnswered, index) }
            progress.accounted += 1 + (object["dropped"] as? Int ?? 0)
            progress.answered.broadcast()
        }
    }

    /// The first whole WebSocket frame in `data`: opcode, FIN, unmasked payload and the frame's length.
    private static func frame(in data: Data) -> (UInt8, Bool, Data, Int)? {
        let bytes = [UInt8](data.prefix(14))
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        let masked = bytes[1] & 0x80 != 0
        let key = masked ? Array(data.dropFirst(offset).prefix(4)) : []
        if masked { offset += 4 }
        guard data.count >= offset + length else { return nil }
        var payload = Data(data.dropFirst(offset).prefix(length))
        if masked { for index in payload.indices { payload[index] ^= key[(index - payload.startIndex) % 4] } }
        return (bytes[0] & 0x0F, bytes[0] & 0x80 != 0, payload, offset + length)
    }

    /// `payload` as one final binary frame from a client, masked once (every frame sent is these bytes).
    private static func maskedBinaryFrame(_ payload: Data) -> Data {
        var frame = Data([0x82])
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65_536 {
            frame.append(contentsOf: [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)])
        } else {
            frame.append(0x80 | 127)
            frame.append(contentsOf: (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) })
        }
        let key: [UInt8] = [0x5A, 0x3C, 0xA5, 0x17]
        frame.append(contentsOf: key)
        frame.append(contentsOf: payload.enumerated().map { $0.element ^ key[$0.offset % 4] })
        return frame
    }
}
