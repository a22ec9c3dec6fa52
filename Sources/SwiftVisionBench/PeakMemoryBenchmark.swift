import Foundation
import SwiftVision

/// Each task's one-image peak resident memory: `swiftvision TASK --json IMAGE` in a fresh process
/// under GNU time, which reports the child's peak (a child of the bench would inherit its peak).
enum PeakMemoryBenchmark {
    /// The command and the sample image of each task.
    static let tasks: [(command: [String], image: String)] = [
        (["faces"], "zidane.jpg"), (["faces", "--landmarks"], "zidane.jpg"), (["pose"], "bus.jpg"), (["hands"], "zidane.jpg"),
        (["detect", "--multiple"], "bus.jpg"), (["segment"], "zidane.jpg"), (["rectangles"], "bus.jpg"),
        (["barcodes"], "pyzbar-qrcode.png"), (["text"], "page.png"), (["label"], "dog.jpg"), (["embed"], "dog.jpg"),
    ]

    static func run(cache: SwiftVisionCache) throws {
        let executable = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("swiftvision")
        print("\nPeak memory — one image per task, `swiftvision TASK --json IMAGE` in a fresh process (GNU time's maximum RSS)")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            print("skipped: needs GNU time (scripts/install-system-packages.sh --bench installs it)")
            return
        }
        for (command, image) in tasks {
            let arguments = command + ["--json", cache.sample(named: image).path]
            let label = "swiftvision \((command + ["--json", image]).joined(separator: " "))"
            print(label.padding(toLength: 52, withPad: " ", startingAt: 0) + (try peak(of: executable, arguments: arguments)))
        }
    }

    /// The peak RSS in MiB of one run, or why there is none.
    static func peak(of executable: URL, arguments: [String]) throws -> String {
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
            return "failed: " + (output.split(separator: "\n").last.map(String.init) ?? "no output")
        }
        return String(format: "%8.1f MiB", kilobytes / 1024)
    }
}
