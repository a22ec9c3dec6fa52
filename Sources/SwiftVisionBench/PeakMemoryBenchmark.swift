import Foundation
import SwiftVision

/// Start-up and each task's one-image cost: `swiftvision TASK --json IMAGE` in a fresh process, timed from
/// spawn to exit by a small Python process (Benchmarks/launch_timer.py: spawning from the bench's own large
/// process would add time that is not the command's), and its peak resident memory from GNU time (a child
/// of the bench would inherit the bench's peak).
enum PeakMemoryBenchmark {
    /// How often each command runs for its time (the median), and again for its peak (the largest).
    static let runs = 7

    /// The command and the sample image of each task; start-up first (`--help`, `info`).
    static let tasks: [(command: [String], image: String?)] = [
        (["--help"], nil), (["info"], "bus.jpg"),
        (["faces", "--fast"], "zidane.jpg"), (["faces"], "zidane.jpg"), (["faces", "--landmarks"], "zidane.jpg"),
        (["pose"], "bus.jpg"), (["hands"], "zidane.jpg"),
        (["detect", "--multiple"], "bus.jpg"), (["segment"], "zidane.jpg"), (["rectangles"], "bus.jpg"),
        (["barcodes"], "pyzbar-qrcode.png"), (["text"], "page.png"), (["label"], "dog.jpg"), (["embed"], "dog.jpg"),
    ]

    static func run(cache: SwiftVisionCache) throws {
        let python = cache.root.appendingPathComponent("tools-venv/bin/python")
        let executable = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("swiftvision")
        print("\nStart-up and one image per task — `swiftvision TASK --json IMAGE` in a fresh process, \(runs) runs:")
        print("wall time from spawn to exit (median, IQR; after 1 warm-up) and GNU time's maximum RSS (largest)")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            print("skipped: needs GNU time (scripts/install-system-packages.sh --bench installs it)")
            return
        }
        print("command".padding(toLength: 52, withPad: " ", startingAt: 0) + "    wall ms     IQR   peak MiB")
        for (command, image) in tasks {
            let json = command.first == "--help" ? [] : ["--json"]
            let arguments = command + json + (image.map { [cache.sample(named: $0).path] } ?? [])
            let label = "swiftvision " + (command + json + (image.map { [$0] } ?? [])).joined(separator: " ")
            print(label.padding(toLength: 52, withPad: " ", startingAt: 0) + (try measure(executable, arguments: arguments, python: python)))
        }
    }

    /// The wall time's median and IQR over `runs` runs, and the largest peak RSS of `runs` more; or why there are none.
    static func measure(_ executable: URL, arguments: [String], python: URL) throws -> String {
        let launches = try Launches.measure([executable.path] + arguments, runs: runs, python: python)
        var peak = 0.0
        for _ in 0..<runs {
            switch try once(executable, arguments: arguments) {
            case .success(let mebibytes): peak = max(peak, mebibytes)
            case .failure(let reason): return "failed: \(reason.message)"
            }
        }
        guard launches.status == 0 else { return "failed: exit status \(launches.status)" }
        return String(format: "%11.1f %7.1f %10.1f", launches.median, launches.iqr, peak)
    }

    struct Failure: Error {
        let message: String
    }

    /// The peak RSS in MiB of one run under GNU time, or why there is none.
    static func once(_ executable: URL, arguments: [String]) throws -> Result<Double, Failure> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M %x", executable.path] + arguments
        let report = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = report
        try process.run()
        let output = String(decoding: report.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let fields = output.split(separator: "\n").last?.split(separator: " ") ?? []
        guard fields.count == 2, let kilobytes = Double(fields[0]), fields[1] == "0" else {
            return .failure(Failure(message: output.split(separator: "\n").last.map(String.init) ?? "no output"))
        }
        return .success(kilobytes / 1024)
    }
}
