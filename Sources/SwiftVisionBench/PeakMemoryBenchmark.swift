import Foundation
import SwiftVision

/// Start-up and each task's one-image cost: `swiftvision TASK --json IMAGE` in a fresh process under GNU
/// time, which reports the child's peak resident memory (a child of the bench would inherit its peak),
/// timed from spawn to exit as a user sees it.
enum PeakMemoryBenchmark {
    /// How often each command runs: the wall time is the median, the peak the largest.
    static let runs = 5

    /// The command and the sample image of each task; start-up first (`--help`, `info`).
    static let tasks: [(command: [String], image: String?)] = [
        (["--help"], nil), (["info"], "bus.jpg"),
        (["faces"], "zidane.jpg"), (["faces", "--landmarks"], "zidane.jpg"), (["pose"], "bus.jpg"), (["hands"], "zidane.jpg"),
        (["detect", "--multiple"], "bus.jpg"), (["segment"], "zidane.jpg"), (["rectangles"], "bus.jpg"),
        (["barcodes"], "pyzbar-qrcode.png"), (["text"], "page.png"), (["label"], "dog.jpg"), (["embed"], "dog.jpg"),
    ]

    static func run(cache: SwiftVisionCache) throws {
        let executable = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("swiftvision")
        print("\nStart-up and one image per task — `swiftvision TASK --json IMAGE` in a fresh process, \(runs) runs:")
        print("wall time from spawn to exit (median) and GNU time's maximum RSS (largest)")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            print("skipped: needs GNU time (scripts/install-system-packages.sh --bench installs it)")
            return
        }
        print("command".padding(toLength: 52, withPad: " ", startingAt: 0) + "    wall ms    peak MiB")
        for (command, image) in tasks {
            let json = command.first == "--help" ? [] : ["--json"]
            let arguments = command + json + (image.map { [cache.sample(named: $0).path] } ?? [])
            let label = "swiftvision " + (command + json + (image.map { [$0] } ?? [])).joined(separator: " ")
            print(label.padding(toLength: 52, withPad: " ", startingAt: 0) + (try measure(executable, arguments: arguments)))
        }
    }

    /// The median wall time and the largest peak RSS of `runs` runs, or why there are none.
    static func measure(_ executable: URL, arguments: [String]) throws -> String {
        var walls: [Double] = []
        var peak = 0.0
        for _ in 0..<runs {
            switch try once(executable, arguments: arguments) {
            case .success(let run):
                walls.append(run.milliseconds)
                peak = max(peak, run.mebibytes)
            case .failure(let reason):
                return "failed: \(reason.message)"
            }
        }
        return String(format: "%11.1f %11.1f", walls.sorted()[walls.count / 2], peak)
    }

    struct Failure: Error {
        let message: String
    }

    static func once(_ executable: URL, arguments: [String]) throws -> Result<(milliseconds: Double, mebibytes: Double), Failure> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M %x", executable.path] + arguments
        let report = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = report
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        let output = String(decoding: report.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        let fields = output.split(separator: "\n").last?.split(separator: " ") ?? []
        guard fields.count == 2, let kilobytes = Double(fields[0]), fields[1] == "0" else {
            return .failure(Failure(message: output.split(separator: "\n").last.map(String.init) ?? "no output"))
        }
        return .success((milliseconds, kilobytes / 1024))
    }
}
