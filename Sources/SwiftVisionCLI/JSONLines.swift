import Foundation
import ArgumentParser
import SwiftVision

/// Prints one JSON object per line on standard output.
enum JSONLines {
    static func print<Value: Encodable>(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = try encoder.encode(value)
        FileHandle.standardOutput.write(line + Data("\n".utf8))
    }
}

/// Writes progress and warnings to standard error, leaving standard output to results.
enum Diagnostics {
    static func note(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}

/// Shows progress on standard error when it is a terminal.
struct ProgressBar {
    let total: Int
    let label: String
    private let isTerminal = isatty(2) == 1

    init(total: Int, label: String) {
        self.total = total
        self.label = label
    }

    func update(_ done: Int) {
        guard isTerminal else { return }
        let width = 30
        let filled = total > 0 ? min(width, done * width / total) : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        let count = total > 0 ? "\(done)/\(total)" : "\(done)"
        FileHandle.standardError.write(Data("\r\(label) \(bar) \(count)".utf8))
    }

    func finish() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}

extension TaskLine {
    /// The input's path as the plain-text output shows it.
    var fileName: String { file ?? "-" }
}

/// `--verbose`, shared by the commands that run models: LiteRT's own log lines (INFO, WARNING) and the
/// codecs' messages about corrupt files reach standard error only with it.
struct LoggingOptions: ParsableArguments {
    @Flag(help: "Show the runtime's own log lines (LiteRT's INFO and WARNING), the codecs' messages and, for serve, debug logs.")
    var verbose = false

    /// Applies the choice as the options are parsed, before the command runs.
    func validate() throws {
        LiteRT.logSeverity = verbose ? .verbose : .error
        CodecMessages.show(verbose)
    }
}
