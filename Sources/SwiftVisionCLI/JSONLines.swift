import Foundation
import ArgumentParser
import SwiftVision

/// Prints one JSON object per line on standard output.
enum JSONLines {
    static func print<Value: Encodable>(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = try encoder.encode(value)
        StandardStream.output.write(line + Data("\n".utf8))
    }
}

/// Standard output or error, written straight to its file descriptor: unbuffered, so each line reaches a
/// pipe as soon as it is written, without Foundation's `FileHandle` (whose code a one-image run would map).
struct StandardStream {
    let descriptor: Int32

    static let output = StandardStream(descriptor: STDOUT_FILENO)
    static let error = StandardStream(descriptor: STDERR_FILENO)

    /// Writes all of `bytes`, retrying partial and interrupted writes; stops at any other failure.
    func write(_ bytes: Data) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// Writes `text` as UTF-8.
    func write(_ text: String) {
        write(Data(text.utf8))
    }
}

/// Writes progress and warnings to standard error, leaving standard output to results.
enum Diagnostics {
    /// Writes `message` as a line of its own: on a terminal, a progress bar on the current line is erased
    /// first, so that the message never follows the bar.
    static func note(_ message: String) {
        StandardStream.error.write((ProgressBar.isTerminal ? ProgressBar.erasure : "") + message + "\n")
    }
}

/// Shows progress on standard error: a bar on a terminal; elsewhere (a log file, a CI job) a line
/// `LABEL: DONE/TOTAL UNIT` once the work has gone on for ``lineInterval`` and then at most once per
/// interval, so that long work shows it is moving and short work prints nothing.
final class ProgressBar {
    let total: Int
    let label: String
    /// What is counted, as the lines name it: `images`, `frames`, `bytes`.
    let unit: String
    private var lastLine = ContinuousClock.now

    /// Whether standard error is a terminal, where bars are drawn.
    static let isTerminal = isatty(STDERR_FILENO) == 1
    /// A carriage return and the terminal's "erase to the end of the line".
    static let erasure = "\r\u{1B}[K"
    /// How long work goes on between two progress lines off a terminal: 10 s, as `index add` writes them,
    /// or the seconds of `SWIFTVISION_PROGRESS_SECONDS` (0: a line for each step).
    static let lineInterval: Duration = {
        let seconds = ProcessInfo.processInfo.environment["SWIFTVISION_PROGRESS_SECONDS"].flatMap(Double.init)
        return .milliseconds(Int((seconds.map { $0.isFinite ? min(max($0, 0), 86_400) : 10 } ?? 10) * 1000))
    }()

    /// Erases the bar from its line before a result is printed, so that on a terminal, where standard
    /// output and error share the screen, the result starts at the beginning of a line instead of after
    /// the bar; `update(_:)` draws it again.
    static func clear() {
        guard isTerminal else { return }
        StandardStream.error.write(erasure)
    }

    init(total: Int, label: String, unit: String) {
        self.total = total
        self.label = label
        self.unit = unit
    }

    func update(_ done: Int) {
        let count = total > 0 ? "\(done)/\(total)" : "\(done)"
        guard Self.isTerminal else {
            let now = ContinuousClock.now
            guard now - lastLine >= Self.lineInterval else { return }
            lastLine = now
            Diagnostics.note("\(label): \(count) \(unit)")
            return
        }
        let width = 30
        let filled = total > 0 ? min(width, done * width / total) : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        StandardStream.error.write("\r\(label) \(bar) \(count)")
    }

    func finish() {
        guard Self.isTerminal else { return }
        StandardStream.error.write("\n")
    }
}

extension TaskLine {
    /// The input's path, and a frame's position in its video, as the plain-text output shows them.
    var place: String { (file ?? "-") + (frame.map { " frame \($0)" } ?? "") }
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
