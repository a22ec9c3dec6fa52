import Foundation

/// A peer's answer to one request of ``PeerSession/turns(iterations:request:as:ours:)``.
protocol TimedPeerAnswer: Decodable {
    /// The wall time of the peer's one call, in milliseconds.
    var ms: Double { get }
}

/// The peer's answer that says only how long its call took (and its peak memory so far).
struct PeerTime: TimedPeerAnswer {
    var ms: Double
    var peakMiB: Double

    enum CodingKeys: String, CodingKey {
        case ms, peakMiB = "peak_mib"
    }
}

/// The peer's answer with the number of things its call found, such as faces or codes.
struct PeerCount: TimedPeerAnswer {
    var ms: Double
    var count: Int
}

/// The MediaPipe peers' first line.
struct MediaPipeGreeting: Decodable {
    var mediapipeVersion: String

    enum CodingKeys: String, CodingKey {
        case mediapipeVersion = "mediapipe_version"
    }
}

/// Our timing and the peer's of the same work, their samples taken in turns, and the peer's last answer.
struct Turns<Answer: TimedPeerAnswer> {
    var time: Timing
    var peerTime: Timing
    var answer: Answer
}

extension PeerSession {
    /// Runs `ours` and asks the peer for `request` in turns, ours first in even turns and the peer's first in
    /// odd ones, after ``warmUpRuns`` turns left out, so that both sides' samples meet the same host load.
    func turns<Answer: TimedPeerAnswer>(
        iterations: Int, request: String, as type: Answer.Type, ours: () throws -> Void
    ) throws -> Turns<Answer> {
        let clock = ContinuousClock()
        var (samples, peerSamples) = ([Double](), [Double]())
        var answer: Answer?
        for turn in 0..<(warmUpRuns + iterations) {
            var ms = 0.0
            func runOurs() throws { ms = milliseconds(try clock.measure(ours)) }
            func askPeer() throws { answer = try self.answer(to: request, as: Answer.self) }
            if turn.isMultiple(of: 2) {
                try runOurs()
                try askPeer()
            } else {
                try askPeer()
                try runOurs()
            }
            guard turn >= warmUpRuns, let answer else { continue }
            samples.append(ms)
            peerSamples.append(answer.ms)
        }
        guard let answer else { throw Failure(description: "no turns asked for: \(request)") }
        return Turns(time: Timing(samples: samples), peerTime: Timing(samples: peerSamples), answer: answer)
    }
}
