import Foundation
import SwiftVision

/// Start-up and each task's one-image cost: `swiftvision TASK --json IMAGE` in a fresh process, timed from
/// spawn to exit with its peak resident memory by a small Python process (Benchmarks/launch_timer.py).
enum PeakMemoryBenchmark {
    /// How often each command runs, after one warm-up.
    static let runs = 7

    /// The command and the sample image of each task; start-up first (`--help`, `info`).
    static let tasks: [(command: [String], image: String?)] = [
        (["--help"], nil), (["info"], "bus.jpg"),
        (["faces", "--fast"], "zidane.jpg"), (["faces"], "zidane.jpg"), (["faces", "--landmarks"], "zidane.jpg"),
        (["pose"], "bus.jpg"), (["hands"], "zidane.jpg"),
        (["objects", "--multiple"], "bus.jpg"), (["segment"], "zidane.jpg"), (["rectangles"], "bus.jpg"),
        (["barcodes"], "pyzbar-qrcode.png"), (["text"], "page.png"), (["label"], "dog.jpg"), (["embed"], "dog.jpg"),
    ]

    static func run(cache: SwiftVisionCache) throws {
        let python = cache.root.appendingPathComponent("tools-venv/bin/python")
        let executable = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("swiftvision")
        print("\nStart-up and one image per task — `swiftvision TASK --json IMAGE` in a fresh process, \(runs) runs:")
        print("wall time from spawn to exit (median, IQR; after 1 warm-up) and the largest maximum RSS of the runs")
        HostLoad.shared.beginTable()
        print("command".padding(toLength: 52, withPad: " ", startingAt: 0) + "    wall ms     IQR   peak MiB")
        for (command, image) in tasks {
            let json = command.first == "--help" ? [] : ["--json"]
            let arguments = command + json + (image.map { [cache.sample(named: $0).path] } ?? [])
            let label = "swiftvision " + (command + json + (image.map { [$0] } ?? [])).joined(separator: " ")
            let launches = try Launches.measure([executable.path] + arguments, runs: runs, python: python)
            let figures =
                launches.status == 0
                ? String(format: "%11.1f %7.1f %10.1f", launches.median, launches.iqr, launches.peakMiB)
                : "failed: exit status \(launches.status): \(launches.error)"
            print(label.padding(toLength: 52, withPad: " ", startingAt: 0) + figures)
        }
    }
}
