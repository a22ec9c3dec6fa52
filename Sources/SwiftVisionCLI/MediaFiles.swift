import Foundation
import ArgumentParser

/// Conventions shared by the commands that take images and videos.
enum MediaFiles {
    static let videoExtensions: Set<String> = ["mp4", "mov", "avi", "mkv", "webm", "m4v"]

    static func isVideo(_ url: URL) -> Bool {
        videoExtensions.contains(url.pathExtension.lowercased())
    }

    /// Where `--draw OUT` puts the annotated version of `input`: OUT itself for a single input, else a
    /// file named after the input inside the folder OUT (PNG for images, MP4 for videos).
    static func annotatedURL(for input: URL, draw: String?, inputCount: Int) -> URL? {
        guard let draw else { return nil }
        var isFolder: ObjCBool = false
        guard inputCount > 1 || (FileManager.default.fileExists(atPath: draw, isDirectory: &isFolder) && isFolder.boolValue)
        else { return URL(fileURLWithPath: draw) }
        try? FileManager.default.createDirectory(atPath: draw, withIntermediateDirectories: true)
        let name = input.deletingPathExtension().lastPathComponent + (isVideo(input) ? ".mp4" : ".png")
        return URL(fileURLWithPath: draw).appendingPathComponent(name)
    }
}

/// The JSON line of an input that could not be processed.
struct ErrorReport: Encodable {
    var file: String
    var error: String
}

extension MediaFiles {
    /// Runs `body` for each input; an input that fails gets an error line (JSON or stderr), and the
    /// command exits with status 1 once all inputs are done.
    static func process(_ inputs: [String], json: Bool, _ body: (URL) throws -> Void) throws {
        var failures = 0
        for input in inputs {
            do {
                try body(URL(fileURLWithPath: input))
            } catch {
                failures += 1
                try reportFailure(of: input, error: error, json: json)
            }
        }
        if failures > 0 { throw ExitCode(1) }
    }

    /// Reports that `input` (a file, or a model the command needs) failed with `error`: a JSON line
    /// `{"file","error"}` with `--json`, and a note on standard error.
    static func reportFailure(of input: String, error: any Error, json: Bool) throws {
        if json { try JSONLines.print(ErrorReport(file: input, error: error.localizedDescription)) }
        Diagnostics.note("\(input): \(error.localizedDescription)")
    }
}
