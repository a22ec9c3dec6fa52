import Foundation

/// Spawn-to-exit wall times and peak memory of a command, measured by Benchmarks/launch_timer.py: a small
/// process, because spawning from the bench's own large one would add time that is not the command's, and
/// a child of the bench would inherit the bench's peak.
struct Launches: Decodable {
    /// The median wall time in milliseconds, after one warm-up run.
    let median: Double
    /// The interquartile range of the wall times in milliseconds.
    let iqr: Double
    /// The largest peak resident memory of the runs, in MiB.
    let peakMiB: Double
    /// The exit status of the last run.
    let status: Int
    /// The last line the last run wrote on standard error.
    let error: String

    enum CodingKeys: String, CodingKey {
        case median, iqr, peakMiB = "peak_mib", status, error
    }

    /// Runs `command` (the executable, then its arguments) `runs` times after a warm-up.
    static func measure(_ command: [String], runs: Int, python: URL) throws -> Launches {
        try PeerProcess.run(python: python, script: "launch_timer.py", arguments: ["\(runs)"] + command, as: Launches.self)
    }
}
