import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import SwiftVisionServer

/// The webhook outbox against a real receiver on loopback (a Hummingbird server), with a short retry schedule.
@Suite(.serialized) struct WebhookOutboxTests {
    static let secret = "a-test-secret-of-32-characters!!"
    static let retries = WebhookOutbox.Retries(attempts: 3, firstDelay: 20, longestDelay: 40)

    /// What a receiver was sent: each post's signature header and body.
    final class Received: Sendable {
        let posts = Mutex<[(signature: String?, body: String)]>([])
        var count: Int { posts.withLock { $0.count } }
    }

    /// A receiver that answers `status` to every post and keeps what it was sent in `received`.
    static func receiver(answering status: HTTPResponse.Status, received: Received) -> Application<RouterResponder<BasicRequestContext>> {
        let router = Router()
        router.post("hook") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 20)
            received.posts.withLock { $0.append((request.headers[HTTPField.Name(WebhookSignature.header)!], String(buffer: body))) }
            return Response(status: status)
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    static func event(_ sequence: Int) -> SourceEvent {
        SourceEvent(id: "test.run.\(sequence)", type: "object.entered", source: "test", timestampMs: 1_700_000_000_000, trackingID: sequence)
    }

    static func waitUntil(seconds: Double, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    }

    @Test func aPostRefusedAtEveryAttemptGoesToTheDeadLettersWithoutItsSecret() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let deadLetters = folder.appendingPathComponent("dead-letters.jsonl")
        let received = Received()
        try await Self.receiver(answering: .internalServerError, received: received).test(.live) { client in
            let port = try #require(client.port)
            let outbox = WebhookOutbox(
                file: folder.appendingPathComponent("outbox.jsonl"), deadLetters: deadLetters, retries: Self.retries,
                logger: Logger(label: "outbox-test"))
            let target = WebhookTarget(url: "http://127.0.0.1:\(port)/hook", secret: Self.secret)
            outbox.enqueue(Self.event(1), to: target)
            // Each attempt may wait out the 3 s connect and 5 s read timeouts when the machine is loaded.
            try await Self.waitUntil(seconds: 60) { outbox.waiting == 0 }
            #expect(outbox.waiting == 0)
        }
        // Tried as often as the schedule says (a post whose answer came too late counts as a failed attempt
        // too, so the receiver sees at most that many), each post signed.
        let posts = received.posts.withLock { $0 }
        #expect((1...Self.retries.attempts).contains(posts.count))
        #expect(posts.allSatisfy { $0.signature?.hasPrefix("t=") == true && $0.body.contains("\"test.run.1\"") })
        let lines = try String(contentsOf: deadLetters, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        let letter = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(letter["id"] as? String == "test.run.1")
        #expect(letter["attempts"] as? Int == Self.retries.attempts)
        #expect((letter["lastError"] as? String)?.isEmpty == false, "\(letter)")
        #expect(!lines[0].contains(Self.secret), "a dead letter keeps no secret")
    }

    @Test func aReceiverThatTakesThePostsGetsEachInOrder() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let received = Received()
        try await Self.receiver(answering: .noContent, received: received).test(.live) { client in
            let port = try #require(client.port)
            let outbox = WebhookOutbox(
                file: folder.appendingPathComponent("outbox.jsonl"), deadLetters: folder.appendingPathComponent("dead-letters.jsonl"),
                retries: Self.retries, logger: Logger(label: "outbox-test"))
            let target = WebhookTarget(url: "http://127.0.0.1:\(port)/hook", secret: Self.secret)
            for sequence in 1...5 { outbox.enqueue(Self.event(sequence), to: target) }
            try await Self.waitUntil(seconds: 60) { outbox.waiting == 0 && received.count == 5 }
        }
        let ids = received.posts.withLock { $0 }.compactMap { post in
            (try? JSONSerialization.jsonObject(with: Data(post.body.utf8)) as? [String: Any])?["id"] as? String
        }
        // At least once, in order: a post whose answer is lost is posted again, so a receiver keeps events by id.
        var firstSeen: [String] = []
        for id in ids where !firstSeen.contains(id) { firstSeen.append(id) }
        #expect(firstSeen == (1...5).map { "test.run.\($0)" })
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("dead-letters.jsonl").path))
    }
}
