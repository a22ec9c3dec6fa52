import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

extension LiteRT {
    /// How much of LiteRT's own log (which it writes straight to standard error) gets through.
    public enum LogSeverity: Int, Sendable, Comparable, CaseIterable {
        /// Everything LiteRT prints.
        case verbose
        /// Informational lines and up.
        case info
        /// Warnings and errors.
        case warning
        /// Errors only: the default, so that loading a model prints nothing when all goes well.
        case error

        public static func < (lhs: LogSeverity, rhs: LogSeverity) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The severity of one line of LiteRT's log (`INFO: [file.cc:12] …`); nil for a line that is not
        /// LiteRT's.
        init?(line: Substring) {
            let prefixes: [(String, LogSeverity)] = [("VERBOSE: ", .verbose), ("INFO: ", .info), ("WARNING: ", .warning), ("ERROR: ", .error)]
            guard let match = prefixes.first(where: { line.hasPrefix($0.0) }) else { return nil }
            self = match.1
        }
    }

    private static let minimumSeverity = Atomic<Int>(LogSeverity.error.rawValue)

    /// The least severe LiteRT log lines that reach standard error; `.error` by default. The
    /// command-line tool's `--verbose` sets `.verbose`.
    ///
    /// LiteRT 2.3.0 exports no logger setting from its C library, so SwiftVision captures standard
    /// error while it calls into LiteRT to create environments, load and compile models, and passes on
    /// the lines at or above this severity, and every line that is not LiteRT's.
    public static var logSeverity: LogSeverity {
        get { LogSeverity(rawValue: minimumSeverity.load(ordering: .relaxed)) ?? .error }
        set { minimumSeverity.store(newValue.rawValue, ordering: .relaxed) }
    }

    /// Serialises captures: standard error is one per process.
    private static let captureLock = NSRecursiveLock()
    nonisolated(unsafe) private static var captureDepth = 0

    /// Runs `body` (a call into LiteRT) with standard error captured, then writes what it captured
    /// through the ``logSeverity`` filter. Nested calls capture once.
    static func filteringLog<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard logSeverity > .verbose else { return try body() }
        captureLock.lock()
        defer { captureLock.unlock() }
        captureDepth += 1
        defer { captureDepth -= 1 }
        guard captureDepth == 1, let capture = tmpfile() else { return try body() }
        defer { fclose(capture) }
        fflush(nil)
        let saved = dup(STDERR_FILENO)
        guard saved >= 0, dup2(fileno(capture), STDERR_FILENO) >= 0 else {
            if saved >= 0 { close(saved) }
            return try body()
        }
        defer {
            fflush(nil)
            dup2(saved, STDERR_FILENO)
            close(saved)
            passOn(capture)
        }
        return try body()
    }

    /// Writes the lines of `capture` that pass the filter to standard error.
    private static func passOn(_ capture: UnsafeMutablePointer<FILE>) {
        let length = ftell(capture)
        guard length > 0 else { return }
        rewind(capture)
        var bytes = [UInt8](repeating: 0, count: length)
        let read = fread(&bytes, 1, length, capture)
        let text = String(decoding: bytes.prefix(read), as: UTF8.self)
        let minimum = logSeverity
        var kept = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0) {
            if let severity = LogSeverity(line: line), severity < minimum { continue }
            kept += line + "\n"
        }
        if !kept.isEmpty { FileHandle.standardError.write(Data(kept.utf8)) }
    }
}
