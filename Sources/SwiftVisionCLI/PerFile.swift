import ArgumentParser
import Foundation

/// The convention for commands over many files: each file on its own, a failing file reported as
/// `{"file","error"}` (or on standard error) while the others go on, and exit status 1 at the end.
enum PerFile {
    static func run(_ files: [String], json: Bool, label: String, _ body: (String) throws -> Void) throws {
        let progress = ProgressBar(total: files.count, label: label)
        var failures = 0
        for (index, file) in files.enumerated() {
            do {
                try body(file)
            } catch {
                failures += 1
                report(file: file, error: error, json: json)
            }
            progress.update(index + 1)
        }
        progress.finish()
        if failures > 0 { throw ExitCode(1) }
    }

    /// Reports that `file` failed with `error`.
    static func report(file: String, error: any Error, json: Bool) {
        if json { try? JSONLines.print(FileError(file: file, error: error.localizedDescription)) }
        Diagnostics.note("\(file): \(error.localizedDescription)")
    }

    private struct FileError: Encodable {
        var file: String
        var error: String
    }
}
