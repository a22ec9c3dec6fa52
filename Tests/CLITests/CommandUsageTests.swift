import Foundation
import SwiftVisionTestSupport
import Testing

/// What a command prints when it is used wrongly, read from the real binary.
@Suite struct CommandUsageTests {
    static let executable = Fixtures.executable

    /// `watch` with a task whose output makes no event (docs/sources.md, "Events": objects, faces, barcodes,
    /// segment, and text watching phrases) is a usage error naming the tasks that make them, not a run that
    /// prints nothing.
    @Test func watchRefusesATaskThatMakesNoEvents() throws {
        let file = try Fixtures.sample("bus.jpg").path
        let labels = try Fixtures.run(Self.executable, ["watch", file, "--task", "labels"])
        #expect(labels.status == 64 && labels.output.isEmpty)
        #expect(labels.errors.split(separator: "\n").first == """
            Error: --task labels makes no events; the tasks that make them are objects, faces, barcodes, segment, \
            and text with --match PHRASE
            """, "\(labels.errors)")
        let text = try Fixtures.run(Self.executable, ["watch", file, "--task", "text"])
        #expect(text.status == 64 && text.errors.hasPrefix("Error: --task a text source makes events (text.matched) only"), "\(text.errors)")
    }

    /// An error a command finds while it runs (a zero-byte `--background`) is followed by the command's own
    /// usage, in the form ArgumentParser prints for an error its `validate()` finds (`--background` without
    /// `--draw`), not the root's `Usage: swiftvision <subcommand>`.
    @Test func anErrorWhileRunningShowsTheCommandsOwnUsage() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.jpg")
        try Data().write(to: empty)
        let photo = try Fixtures.sample("bus.jpg").path
        let running = try Fixtures.run(
            Self.executable, ["segment", "--background", empty.path, "--draw", folder.appendingPathComponent("out.png").path, photo])
        let validating = try Fixtures.run(Self.executable, ["segment", "--background", empty.path, photo])
        #expect(running.status == 64 && validating.status == 64)
        let runningLines = running.errors.split(separator: "\n", omittingEmptySubsequences: false)
        let validatingLines = validating.errors.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(runningLines.first == "Error: --background \(empty.path): the image data is empty", "\(running.errors)")
        #expect(validatingLines.first == "Error: --background composites an image: give --draw OUT")
        #expect(runningLines.dropFirst() == validatingLines.dropFirst(), "\(running.errors)\n\(validating.errors)")
        #expect(runningLines.dropFirst().first?.hasPrefix("Usage: swiftvision segment [<inputs> ...]") == true, "\(running.errors)")
        #expect(running.errors.contains("See 'swiftvision segment --help' for more information."))
    }

    /// An option a task's range check refuses is named as the user typed it (`--model-complexity`,
    /// `--threshold`), not by the task's key (`modelComplexity`, `threshold`); the values are the ones
    /// written on the command line.
    @Test(arguments: [
        (["hands", "--model-complexity", "5"], "Error: invalid option: --model-complexity must be 0 (lite) or 1 (full), not 5"),
        (["pose", "--max-poses", "0"], "Error: invalid option: --max-poses must be at least 1, not 0"),
        (["hands", "--min-detection-confidence", "2"], "Error: invalid option: --min-detection-confidence must lie in 0…1, not 2.0"),
        (["faces", "--threshold", "2"], "Error: invalid option: --threshold must lie in 0…1, not 2.0"),
        (["objects", "--classification-threshold", "2"], "Error: invalid option: --classification-threshold must lie in 0…1, not 2.0"),
        (["rectangles", "--min-size", "2"], "Error: invalid option: --min-size must lie in 0…1, not 2.0"),
        (["rectangles", "--min-aspect", "0.8", "--max-aspect", "0.6"],
         "Error: invalid option: --min-aspect must not exceed the largest aspect ratio (0.6), not 0.8"),
    ])
    func refusedOptionsAreNamedAsTyped(arguments: [String], message: String) throws {
        let photo = try Fixtures.sample("bus.jpg").path
        let run = try Fixtures.run(Self.executable, arguments + [photo])
        #expect(run.status == 64 && run.output.isEmpty)
        #expect(run.errors.split(separator: "\n").first.map(String.init) == message, "\(run.errors)")
    }

    /// `pose --help` and `hands --help` each name their own finds in the thresholds they share.
    @Test(arguments: [("pose", "pose"), ("hands", "hand")])
    func landmarkHelpNamesItsOwnSubject(command: String, subject: String) throws {
        let help = try Fixtures.run(Self.executable, [command, "--help"])
        #expect(help.status == 0)
        let text = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("--min-detection-confidence <min-detection-confidence> Lowest detector score that starts a new \(subject), 0–1."), "\(text)")
        #expect(text.contains("--min-presence-confidence <min-presence-confidence> Lowest confidence of the landmark model that keeps a \(subject), 0–1."), "\(text)")
        #expect(!text.contains("pose or hand"))
    }
}
