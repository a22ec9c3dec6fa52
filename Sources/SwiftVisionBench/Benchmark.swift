import Foundation

/// Median wall time of repeated runs, after one warm-up run.
func medianMilliseconds(iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    try body()
    let clock = ContinuousClock()
    var samples: [Double] = []
    for _ in 0..<iterations {
        samples.append(milliseconds(try clock.measure(body)))
    }
    return samples.sorted()[samples.count / 2]
}

/// A duration in milliseconds.
func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}

/// The process's peak resident memory so far (VmHWM), in MiB.
func peakResidentMiB() -> Double {
    memoryMiB("VmHWM", process: "self")
}

/// A memory field of `/proc/PROCESS/status` (such as `VmHWM` or `VmRSS`), in MiB; 0 when unreadable.
func memoryMiB(_ field: String, process: String) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
        let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes / 1024
}

/// Starts a new peak for ``peakResidentMiB()`` at the current resident memory, so that each section
/// reports its own peak rather than the largest one of the sections before it (Linux 4.0 and later).
func resetPeakResidentMemory() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

/// One printed row of the benchmark table.
struct BenchmarkRow {
    var task: String
    var swift: Double
    var peer: Double?
    var peakMiB: Double

    static let header = "task".padding(toLength: 44, withPad: " ", startingAt: 0)
        + "  swift ms   peer ms   ratio  peak MiB"

    var line: String {
        let peerText = peer.map { String(format: "%8.3f", $0) } ?? "       -"
        let ratio = peer.map { String(format: "%6.2f", swift / $0) } ?? "     -"
        return task.padding(toLength: 44, withPad: " ", startingAt: 0)
            + String(format: "  %8.3f  ", swift) + peerText + "  " + ratio + String(format: "  %8.1f", peakMiB)
    }
}
