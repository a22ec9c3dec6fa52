import Foundation
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import NIOCore
import SwiftVision
import Synchronization
import Testing

@testable import SwiftVisionServer

/// The live-stream WebSocket against a real server on loopback.
@Suite(.serialized) struct StreamTests {
    /// 40 frames of zidane.jpg panning slowly to the right, two faces always in view, as JPEG.
    static func panningFrames(count: Int = 40) throws -> [Data] {
        let photo = try VisionImage(data: try Samples.data("zidane.jpg"))
        return try (0..<count).map { index in
            try photo.cropped(to: CGRect(x: 2 * index, y: 0, width: 1180, height: 720)).encoded(as: .jpeg(quality: 85))
        }
    }

    static func configuration() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        return configuration
    }

    /// Sends every frame as fast as the socket takes them (with the text message `messages[i]` before
    /// frame `i`), then reads results until each frame is accounted for (answered or dropped).
    static func stream(_ frames: [Data], path: String, port: Int, messages: [Int: String] = [:]) async throws -> [[String: Any]] {
        let collected = Mutex<[String]>([])
        try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(port)\(path)", configuration: .init(maxFrameSize: 1 << 22),
            logger: Logger(label: "stream-test")
        ) { inbound, outbound, _ in
            for (index, frame) in frames.enumerated() {
                if let message = messages[index] { try await outbound.write(.text(message)) }
                try await outbound.write(.binary(ByteBuffer(bytes: frame)))
            }
            var accounted = 0
            for try await message in inbound.messages(maxSize: 1 << 24) {
                guard case .text(let text) = message else { continue }
                collected.withLock { $0.append(text) }
                let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
                accounted += 1 + (object["dropped"] as? Int ?? 0)
                if accounted >= frames.count { break }
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
        return try collected.withLock { texts in
            try texts.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        }
    }

    @Test func aFastStreamKeepsTrackingIDsAndCountsItsDropsHonestly() async throws {
        let frames = try Self.panningFrames()
        try await VisionService.makeApplication(configuration: Self.configuration()).test(.live) { client in
            let port = try #require(client.port)
            // The mesh and irises of each face make a frame take longer than the next one takes to arrive.
            let results = try await Self.stream(frames, path: "/v1/stream/faces?landmarks=true", port: port)
            #expect(results.allSatisfy { $0["error"] == nil }, "\(results.filter { $0["error"] != nil })")
            let indices = results.compactMap { $0["frame"] as? Int }
            let dropped = results.compactMap { $0["dropped"] as? Int }
            #expect(indices.count == results.count && dropped.count == results.count)
            // Every frame is answered or dropped, once: the drops before a result are exactly the frames skipped.
            #expect(indices.count + dropped.reduce(0, +) == frames.count)
            #expect(indices.first == 0 && indices.last == frames.count - 1, "the first and the newest frame are processed")
            for (previous, (index, drops)) in zip(indices, zip(indices.dropFirst(), dropped.dropFirst())) {
                #expect(index - previous - 1 == drops, "frames \(previous)…\(index)")
            }
            #expect(dropped.reduce(0, +) > 0, "frames sent faster than they are processed are dropped")
            let timestamps = results.compactMap { $0["timestampMs"] as? Int }
            #expect(timestamps == timestamps.sorted() && Set(timestamps).count == timestamps.count)
            // Each face keeps its tracking ID from the result it is first found in to the last: the detector
            // runs every few frames, so the smaller face may join later, and on a loaded machine, where most
            // frames are dropped, not at all: on these 40 crops on their own `swiftvision faces` finds it in
            // 14 (frames 11–15, 19–20, 33–39), so which frames the detector sees decides. No ID changes hands.
            let ids = results.map { result in
                (result["faces"] as? [[String: Any]] ?? []).compactMap { $0["trackingID"] as? Int }
            }
            #expect(ids.allSatisfy { !$0.isEmpty && Set($0).count == $0.count })
            let faces = Set(ids.joined())
            #expect((1...2).contains(faces.count), "one or two faces, as many IDs: \(ids)")
            #expect(ids.last?.count == faces.count, "nobody leaves: \(ids)")
            for id in Set(ids.joined()) {
                let seen = ids.map { $0.contains(id) }
                let first = seen.firstIndex(of: true) ?? 0
                #expect(seen[first...].allSatisfy { $0 }, "ID \(id) is kept once given: \(ids)")
            }
            // Each face appears once, in the result it is first found in, with its ID; nobody leaves.
            let events = results.flatMap { $0["events"] as? [[String: Any]] ?? [] }
            #expect(events.map { $0["type"] as? String } == Array(repeating: "face.appeared", count: faces.count), "\(events)")
            #expect(Set(events.compactMap { $0["trackingID"] as? Int }) == faces)
        }
    }

    @Test func textMessagesSetTimestampsAndSeedTheTracker() async throws {
        let frames = try Self.panningFrames(count: 6)
        try await VisionService.makeApplication(configuration: Self.configuration()).test(.live) { client in
            let port = try #require(client.port)
            let answers = Mutex<[String]>([])
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/v1/stream/track?level=fast", configuration: .init(maxFrameSize: 1 << 22),
                logger: Logger(label: "stream-test")
            ) { inbound, outbound, _ in
                var iterator = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
                try await outbound.write(.text(#"{"boxes":[{"x":900,"y":110,"width":170,"height":170}]}"#))
                for (index, frame) in frames.enumerated() {
                    // One frame at a time, each answered before the next: nothing is dropped.
                    try await outbound.write(.text(#"{"timestampMs":\#(1000 + 40 * index)}"#))
                    try await outbound.write(.binary(ByteBuffer(bytes: frame)))
                    guard case .text(let text) = try await iterator.next() else { break }
                    answers.withLock { $0.append(text) }
                }
                try await outbound.write(.text(#"{"timestampMs":1000}"#))
                try await outbound.write(.binary(ByteBuffer(bytes: frames[0])))
                if case .text(let text) = try await iterator.next() { answers.withLock { $0.append(text) } }
                try await outbound.close(.normalClosure, reason: nil)
            }
            let results = try answers.withLock { $0 }.map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            #expect(results.count == frames.count + 1)
            #expect(results.prefix(frames.count).compactMap { $0["timestampMs"] as? Int } == (0..<frames.count).map { 1000 + 40 * $0 })
            let tracks = results.prefix(frames.count).compactMap { ($0["tracks"] as? [[String: Any]])?.first }
            #expect(tracks.count == frames.count)
            #expect(tracks.allSatisfy { $0["lost"] as? Bool == false })
            // The frames pan 2 pixels a frame to the right, so the face moves 2 pixels left in each.
            let xs = tracks.compactMap { ($0["boundingBox"] as? [String: Any])?["x"] as? Double }
            #expect(xs.count == frames.count && abs((xs.first ?? 0) - 900) < 1 && (xs.last ?? 0) < (xs.first ?? 0))
            let refused = try #require(results.last?["error"] as? [String: Any])
            #expect(refused["code"] as? String == "non_increasing_timestamp")
        }
    }

    @Test func newOptionsMidStreamLoseNoFrameUncounted() async throws {
        let frames = try Self.panningFrames(count: 24)
        try await VisionService.makeApplication(configuration: Self.configuration()).test(.live) { client in
            let port = try #require(client.port)
            // Halfway, new options restart the task while frames are in flight and waiting.
            let results = try await Self.stream(
                frames, path: "/v1/stream/faces?landmarks=true", port: port, messages: [frames.count / 2: #"{"threshold":0.6}"#])
            #expect(results.allSatisfy { $0["error"] == nil }, "\(results.compactMap { $0["error"] })")
            let indices = results.compactMap { $0["frame"] as? Int }
            let dropped = results.compactMap { $0["dropped"] as? Int }
            #expect(indices == indices.sorted() && indices.last == frames.count - 1)
            #expect(indices.count + dropped.reduce(0, +) == frames.count)
        }
    }

    @Test func aClientThatLeavesMidStreamLeavesTheServerServing() async throws {
        let frames = try Self.panningFrames(count: 10)
        try await VisionService.makeApplication(configuration: Self.configuration()).test(.live) { client in
            let port = try #require(client.port)
            for _ in 0..<3 {
                try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(port)/v1/stream/faces", configuration: .init(maxFrameSize: 1 << 22),
                    logger: Logger(label: "stream-test")
                ) { _, outbound, _ in
                    for frame in frames { try await outbound.write(.binary(ByteBuffer(bytes: frame))) }
                    try await outbound.close(.goingAway, reason: nil)
                }
            }
            let results = try await Self.stream(Array(frames.prefix(2)), path: "/v1/stream/faces", port: port)
            #expect(results.compactMap { $0["frame"] as? Int }.last == 1)
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok)
        }
    }

    @Test func anUnknownStreamOrBadOptionsAreRefusedBeforeTheUpgrade() async throws {
        try await VisionService.makeApplication(configuration: Self.configuration()).test(.live) { client in
            let unknown = try await client.execute(uri: "/v1/stream/teleport", method: .get)
            #expect(unknown.status == .notFound)
            let bad = try await client.execute(uri: "/v1/stream/faces?threshold=9", method: .get)
            #expect(bad.status == .badRequest)
            let plain = try await client.execute(uri: "/v1/stream/faces", method: .get)
            #expect(plain.status.code == 426)
            #expect(try Samples.errorCode(plain) == "upgrade_required")
        }
    }
}

/// A live stream's events are "timed in the stream's own `timestampMs`" (docs/sources.md): a face that
/// leaves does so at the timestamp of the frame that finds it gone, as it appeared at its first frame's.
@Suite struct StreamEventTimeTests {
    @Test func aFaceLeavesAtTheStreamTimeOfTheFrameThatFindsItGone() {
        var tracker = EventTracker(source: "stream", runStartMs: 1_000_000)
        let face: [String: Any] = ["trackingID": 3, "boundingBox": ["x": 10.0, "y": 20.0, "width": 30.0, "height": 30.0]]
        let appeared = tracker.events(for: ["faces": [face]], at: 400)
        #expect(appeared.map(\.type) == ["face.appeared"] && appeared.first?.timestampMs == 400)
        #expect(tracker.events(for: ["faces": [face]], at: 900).isEmpty)
        // 1 s of the stream without it: it has left, at this frame's time, last seen at 900.
        let left = tracker.events(for: ["faces": []], at: 2000)
        #expect(left.map(\.type) == ["face.left"])
        #expect(left.first?.timestampMs == 2000 && left.first?.lastSeenMs == 900 && left.first?.firstSeenMs == 400)
    }
}
