import Foundation

/// Text as read from the shell: `swiftvision text` from spawn to exit, fast and accurate, next to the `tesseract`
/// command on the same image, whose time also includes starting the process and loading the language data.
/// Both read the installed data (`$TESSDATA_PREFIX`, else the system folder) with the bench's one OpenMP thread.
/// The peak column is our command's own peak resident memory.
/// The command is told 300 dpi, the resolution ours gives Tesseract, so that its one pass reads the words our
/// fast level reads; without it, it takes the file's own resolution (72 dpi for page.png) and reads others.
enum TextCommandBenchmark {
    /// Timed runs a side, after one warm-up.
    static let runs = 10
    /// Debian's `tesseract-ocr` command.
    static let command = "/usr/bin/tesseract"

    /// Prints a row per image and level; `fast` holds our fast level's in-process reading of each image.
    static func run(images: [String], fast: [RecognitionBenchmark.TextReading], python: URL) throws {
        print("")
        print("Text from the shell — spawn to exit, median and IQR of \(runs) runs after 1 warm-up (launch_timer.py)")
        print("peer: `tesseract IMAGE - --dpi 300`, one process per image as ours; words: ours (fast) vs the command's")
        print("ours starts its reader without the legacy engine's universal ambiguity table (libSwiftVisionTesseract.so), which the command builds")
        guard FileManager.default.isExecutableFile(atPath: command) else {
            print("skipped: needs the tesseract command (scripts/install-system-packages.sh installs tesseract-ocr)")
            return
        }
        let executable = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("swiftvision")
        BenchmarkRow.printHeader()
        for (path, reading) in zip(images, fast) {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let peerArguments = [path, "-", "--dpi", "300"]
            let peer = try Launches.measure([command] + peerArguments, runs: runs, python: python)
            let peerOutput = try PeerProcess.standardOutput(of: URL(fileURLWithPath: command), arguments: peerArguments)
            let peerWords = String(decoding: peerOutput, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
            for level in ["fast", "accurate"] {
                let ours = try Launches.measure([executable.path, "text", "--level", level, path], runs: runs, python: python)
                let task = "text command \(level) \(name)"
                guard ours.status == 0, peer.status == 0 else {
                    print(task + ": failed, exit status \(ours.status) (ours), \(peer.status) (tesseract)")
                    continue
                }
                let row = BenchmarkRow(
                    task: task, swift: ours.median, peer: peer.median, peakMiB: ours.peakMiB, swiftIQR: ours.iqr, peerIQR: peer.iqr)
                print(row.line + " words \(reading.words.count) vs \(peerWords.count), \(reading.agreement(with: peerWords))")
            }
        }
    }
}
