import Foundation
import SwiftVision

/// Warm-up runs left out before timing, the same on our side and in the Python peers (`timing.py`).
let warmUpRuns = 1

/// The median and interquartile range of timing samples, with the quantile definition `timing.py`
/// uses: linear interpolation between the closest ranks (NumPy's default, R's type 7).
struct Timing {
    var median: Double
    var iqr: Double

    init(samples: [Double]) {
        let ordered = samples.sorted()
        guard !ordered.isEmpty else {
            (median, iqr) = (.nan, .nan)
            return
        }
        func quantile(_ fraction: Double) -> Double {
            let position = Double(ordered.count - 1) * fraction
            let lower = Int(position)
            let upper = min(lower + 1, ordered.count - 1)
            return ordered[lower] + (position - Double(lower)) * (ordered[upper] - ordered[lower])
        }
        median = quantile(0.5)
        iqr = quantile(0.75) - quantile(0.25)
    }
}

/// Wall times in milliseconds of `iterations` runs of `body`, after ``warmUpRuns`` runs left out.
func sampleMilliseconds(iterations: Int, _ body: () throws -> Void) rethrows -> [Double] {
    for _ in 0..<warmUpRuns { try body() }
    let clock = ContinuousClock()
    return try (0..<iterations).map { _ in try clock.measure(body).inMilliseconds }
}

/// Median and IQR of the wall time of repeated runs, after ``warmUpRuns`` runs left out.
func timeMilliseconds(iterations: Int, _ body: () throws -> Void) rethrows -> Timing {
    Timing(samples: try sampleMilliseconds(iterations: iterations, body))
}

/// Median wall time of repeated runs, after ``warmUpRuns`` runs left out.
func medianMilliseconds(iterations: Int, _ body: () throws -> Void) rethrows -> Double {
    try timeMilliseconds(iterations: iterations, body).median
}

/// The median time of one bare invoke of the installed model `name` on one thread, its input left as
/// allocated: the floor under any call that runs the model once.
func bareInvokeMilliseconds(of name: String, cache: SwiftVisionCache, iterations: Int) throws -> Double {
    try medianMilliseconds(iterations: iterations, try bareInvoke(of: name, cache: cache))
}

/// One bare invoke of the installed model `name`, compiled once for one thread, its input left as allocated.
func bareInvoke(of name: String, cache: SwiftVisionCache) throws -> () throws -> Void {
    let interpreter = try Interpreter(contentsOf: cache.model(named: name), options: .init(threadCount: 1))
    return { try interpreter.invoke { _ in } readingOutputs: { _ in } }
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

/// One printed row of the benchmark table: medians, their IQRs when known, and the ratio of medians,
/// or "busy" where the host's 1-minute load average exceeded its core count while the row was timed
/// (``HostLoad``: since the previous row was made).
struct BenchmarkRow {
    var task: String
    var swift: Double
    var peer: Double?
    var peakMiB: Double
    var swiftIQR: Double?
    var peerIQR: Double?
    /// Whether the host was busier than its cores while the row was timed.
    var busy: Bool

    /// A row from our timing and the peer's.
    init(task: String, swift: Timing, peer: Timing?, peakMiB: Double) {
        self.init(task: task, swift: swift.median, peer: peer?.median, peakMiB: peakMiB, swiftIQR: swift.iqr, peerIQR: peer?.iqr)
    }

    /// A row from medians, with their IQRs when known.
    /// Our timing with its spread, beside a peer that reports its median only.
    init(task: String, swift: Timing, peer: Double?, peakMiB: Double) {
        self.init(task: task, swift: swift.median, peer: peer, peakMiB: peakMiB, swiftIQR: swift.iqr)
    }

    init(task: String, swift: Double, peer: Double?, peakMiB: Double, swiftIQR: Double? = nil, peerIQR: Double? = nil) {
        (self.task, self.swift, self.peer, self.peakMiB, self.swiftIQR, self.peerIQR) = (task, swift, peer, peakMiB, swiftIQR, peerIQR)
        busy = HostLoad.shared.rowEnded()
    }

    /// Prints the host's load and the column titles that start a table.
    static func printHeader() {
        HostLoad.shared.beginTable()
        print(header)
    }

    private static let header = "task".padding(toLength: 44, withPad: " ", startingAt: 0)
        + "  swift ms    IQR   peer ms    IQR   ratio  peak MiB"

    var line: String {
        func column(_ value: Double?, _ format: String) -> String {
            value.map { String(format: format, $0) } ?? String(repeating: " ", count: String(format: format, 0.0).count - 1) + "-"
        }
        let ratio = peer.map { busy ? "  busy" : String(format: "%6.2f", swift / $0) } ?? "     -"
        return task.padding(toLength: 44, withPad: " ", startingAt: 0)
            + String(format: "  %8.3f ", swift) + column(swiftIQR, "%6.2f") + "  " + column(peer, "%8.3f") + " "
            + column(peerIQR, "%6.2f") + "  " + ratio + String(format: "  %8.1f", peakMiB)
    }
}
