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

/// Our timing and the peer's of the same work, their samples taken in turns, and the peer's last answer;
/// with a floor, the timing of the bare work under ours (the model's invoke), taken in the same turns.
struct Turns<Answer: TimedPeerAnswer> {
    var time: Timing
    var peerTime: Timing
    var floorTime: Timing?
    var answer: Answer

    /// Our median over the floor's, both from the same turns, as the rows print it: " 1.17× floor of 13.52 ms",
    /// or " busy; floor 13.52 ms" for a row timed while the host was `busy` (``BenchmarkRow/busy``).
    func overFloor(busy: Bool) -> String {
        floorTime.map {
            busy ? String(format: " busy; floor %.2f ms", $0.median)
                : String(format: " %.2f× floor of %.2f ms", time.median / $0.median, $0.median)
        } ?? ""
    }
}

extension PeerSession {
    /// Runs `ours`, `floor` when given, and asks the peer for `request` in turns, after ``warmUpRuns`` turns left
    /// out. Each turn starts one step later in that order than the turn before (ours, floor, peer; then floor,
    /// peer, ours; ...), so that every side runs first, last and in between as often, and all meet the same host load.
    func turns<Answer: TimedPeerAnswer>(
        iterations: Int, request: String, as type: Answer.Type, floor: (() throws -> Void)? = nil, ours: () throws -> Void
    ) throws -> Turns<Answer> {
        let clock = ContinuousClock()
        var (samples, floorSamples, peerSamples) = ([Double](), [Double](), [Double]())
        var answer: Answer?
        let sides: [Side] = floor == nil ? [.ours, .peer] : [.ours, .floor, .peer]
        for turn in 0..<(warmUpRuns + iterations) {
            let counts = turn >= warmUpRuns
            for step in sides.indices {
                switch sides[(turn + step) % sides.count] {
                case .ours:
                    let ms = try clock.measure(ours).inMilliseconds
                    if counts { samples.append(ms) }
                case .floor:
                    let ms = try clock.measure { try floor?() }.inMilliseconds
                    if counts { floorSamples.append(ms) }
                case .peer:
                    let next = try self.answer(to: request, as: Answer.self)
                    if counts { peerSamples.append(next.ms) }
                    answer = next
                }
            }
        }
        guard let answer else { throw Failure(description: "no turns asked for: \(request)") }
        return Turns(
            time: Timing(samples: samples), peerTime: Timing(samples: peerSamples),
            floorTime: floor.map { _ in Timing(samples: floorSamples) }, answer: answer)
    }

    /// A side of ``turns(iterations:request:as:floor:ours:)``.
    private enum Side {
        case ours, floor, peer
    }
}
