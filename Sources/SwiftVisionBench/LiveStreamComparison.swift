import Foundation
import Synchronization

/// A live stream on both sides: frames sent at a fixed period for a fixed time, timestamps 1 ms apart,
/// each result's latency measured from the call that sent its frame.
struct LiveStreamComparison {
    var seconds: Double
    var periods: [Int]
    /// How long past `seconds` the peer may take before it is killed and its last progress line kept.
    var peerGraceSeconds: Double
    var python: URL
    var peerScript: String

    /// Prints one row for us and one for the peer per period; `ours` runs our stream at a period and
    /// `peerArguments` are the peer script's arguments for one.
    func run(ours: (Int) throws -> StreamReport, peerArguments: (Int) -> [String]) throws {
        HostLoad.shared.beginTable()
        print(StreamReport.header)
        var stalled = false
        for period in periods {
            let mine = try ours(period)
            let (lines, timedOut) = try PeerProcess.lines(
                python: python, script: peerScript, arguments: peerArguments(period),
                timeLimit: seconds + peerGraceSeconds, as: StreamReport.self)
            print(mine.line(named: "SwiftVision, every \(period) ms"))
            print(lines.last?.line(named: "MediaPipe, every \(period) ms") ?? "MediaPipe, every \(period) ms: no output")
            stalled = stalled || timedOut
        }
        if stalled {
            print("(stalled): MediaPipe Python's *_async call waits with the GIL held while the graph's input queue is full,")
            print("  so the result callback cannot run and the call never returns (google-ai-edge/mediapipe#5466).")
            print("  Killed after \(Int(seconds + peerGraceSeconds)) s; the row is its last progress line.")
        }
    }

    /// Calls `send(index)` every `period` milliseconds for `seconds`; `deliveries` is where the result
    /// handler notes when the result of each index arrived.
    static func drive(
        seconds: Double, period: Int, deliveries: Deliveries, send: (Int) throws -> Void
    ) throws -> StreamReport {
        var sentAt: [ContinuousClock.Instant] = []
        var calls: [Double] = []
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < .seconds(seconds) {
            sentAt.append(clock.now)
            calls.append(try clock.measure { try send(sentAt.count - 1) }.inMilliseconds)
            Thread.sleep(forTimeInterval: Double(period) / 1000)
        }
        let elapsed = (clock.now - start).inMilliseconds / 1000
        Thread.sleep(forTimeInterval: 0.5)
        let latencies = deliveries.times.withLock { $0.map { ($0.value - sentAt[$0.key]).inMilliseconds } }.sorted()
        return StreamReport(
            sent: calls.count, delivered: latencies.count, seconds: elapsed, callMsMedian: Timing(samples: calls).median,
            callMsMax: calls.max() ?? 0, latencyMsMedian: latencies.isEmpty ? nil : Timing(samples: latencies).median,
            latencyMsMax: latencies.last, done: true)
    }
}

/// When the result of each frame of a live stream arrived, by the frame's index.
final class Deliveries: Sendable {
    let times = Mutex<[Int: ContinuousClock.Instant]>([:])

    /// Notes that the result of frame `index` arrived now.
    func note(_ index: Int) {
        let now = ContinuousClock.now
        times.withLock { $0[index] = now }
    }
}

/// One live-stream run, or the progress line of one that did not finish.
struct StreamReport: Decodable {
    var sent: Int
    var delivered: Int
    var seconds: Double?
    var callMsMedian: Double?
    var callMsMax: Double
    var latencyMsMedian: Double?
    var latencyMsMax: Double?
    var done: Bool?

    enum CodingKeys: String, CodingKey {
        case sent, delivered, seconds, callMsMedian = "call_ms_median", callMsMax = "call_ms_max"
        case latencyMsMedian = "latency_ms_median", latencyMsMax = "latency_ms_max", done
    }

    static let header = "producer                          sent  delivered  dropped  results/s  call ms med/max  latency ms med/max"

    func line(named name: String) -> String {
        func pair(_ first: Double?, _ second: Double?) -> String {
            let text = [first, second].map { $0.map { String(format: "%.2f", $0) } ?? "-" }.joined(separator: " / ")
            return text.padding(toLength: 15, withPad: " ", startingAt: 0)
        }
        let rate = seconds.map { String(format: "%9.1f", Double(delivered) / $0) } ?? "        -"
        return name.padding(toLength: 31, withPad: " ", startingAt: 0)
            + String(format: "%6d  %9d  %7d  ", sent, delivered, sent - delivered) + rate + "  "
            + pair(callMsMedian, callMsMax) + "  " + pair(latencyMsMedian, latencyMsMax)
            + (done == true ? "" : "  (stalled)")
    }
}
