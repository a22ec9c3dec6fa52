import Foundation

/// The host's load while the bench runs, so that no table hides a busy machine: each table prints the
/// core count and the load averages at its start and end, and a row during which the 1-minute load
/// average rose above the core count prints "busy" instead of its ratio.
///
/// A thread reads `/proc/loadavg` every half second and keeps the highest 1-minute figure since the
/// last row was made; making a row (``BenchmarkRow``) takes that figure and starts the next span. Several
/// rows made one right after the other report one measurement taken before the first of them (a
/// section that times every photo, then prints a row per photo): such a row is busy when the row before
/// it was.
final class HostLoad: @unchecked Sendable {
    /// The one watcher of this process, started on first use.
    static let shared = HostLoad()

    /// The CPUs online.
    let cores = ProcessInfo.processInfo.activeProcessorCount
    private let lock = NSLock()
    private var highest = 0.0
    private var tableOpen = false
    /// When the last row was made, and whether it was busy.
    private var lastRow: (end: ContinuousClock.Instant, busy: Bool)?
    /// Rows made less than this long after the row before report the same measurement as it.
    private static let sameMeasurement = Duration.milliseconds(250)

    private init() {
        highest = Self.averages()?[0] ?? 0
        let thread = Thread { [unowned self] in
            while true {
                Thread.sleep(forTimeInterval: 0.5)
                if let now = Self.averages()?[0] { lock.withLock { highest = max(highest, now) } }
            }
        }
        thread.name = "bench load watch"
        thread.start()
    }

    /// Whether the 1-minute load average exceeded the core count since the previous row was made (or
    /// the watch started), now included, or the previous row, made just before, was busy; starts the
    /// next row's span.
    func rowEnded() -> Bool {
        let now = Self.averages()?[0] ?? 0
        let end = ContinuousClock.now
        return lock.withLock {
            let sameMeasurement = lastRow.map { end - $0.end < Self.sameMeasurement && $0.busy } ?? false
            let busy = max(highest, now) > Double(cores) || sameMeasurement
            (highest, lastRow) = (now, (end, busy))
            return busy
        }
    }

    /// Prints the load line that opens a table, after the closing line of a table still open.
    func beginTable() {
        endTable()
        print(line(at: "start"))
        lock.withLock { tableOpen = true }
    }

    /// Prints the load line that closes the open table, if one is open.
    func endTable() {
        guard lock.withLock({ defer { tableOpen = false }; return tableOpen }) else { return }
        print(line(at: "end"))
    }

    /// "host at start: 2 cores, load average 1.02 0.87 0.66 (1, 5, 15 min)".
    private func line(at moment: String) -> String {
        let figures = Self.averages().map { $0.map { String(format: "%.2f", $0) }.joined(separator: " ") } ?? "unknown"
        return "host at \(moment): \(cores) cores, load average \(figures) (1, 5, 15 min)"
    }

    /// The 1-, 5- and 15-minute load averages, nil where `/proc/loadavg` cannot be read.
    private static func averages() -> [Double]? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        let figures = text.split(separator: " ").prefix(3).compactMap { Double($0) }
        return figures.count == 3 ? figures : nil
    }
}
