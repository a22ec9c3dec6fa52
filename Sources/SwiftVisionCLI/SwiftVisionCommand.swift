import ArgumentParser
import Dispatch
import Foundation
import SwiftVisionServer

/// The program's entry point. Every command but `serve` is synchronous and runs on the main thread, which then
/// returns and exits. Swift's `async` main would park the main thread in `dispatch_main`, whose `pthread_exit`
/// unwinds that thread's stack through the binary's unwind tables while the command runs: about 0.7 MiB of
/// pages mapped on every short run such as `info` or `--help`.
@main
enum SwiftVisionMain {
    static func main() {
        var command: any ParsableCommand
        do {
            command = try SwiftVisionCommand.parseAsRoot()
        } catch {
            SwiftVisionCommand.exit(withError: error)
        }
        AllocatorSettings.keepImageBuffers()
        if let server = command as? ServeCommand {
            serve(server)
        }
        do {
            try command.run()
        } catch {
            exit(withError: error, from: type(of: command))
        }
    }

    /// Runs `serve` as a task while the main thread serves the main queue; exits when it ends.
    private static func serve(_ server: ServeCommand) -> Never {
        Task {
            do {
                try await server.run()
            } catch {
                exit(withError: error, from: ServeCommand.self)
            }
            SwiftVisionCommand.exit()
        }
        dispatchMain()
    }

    /// Exits with `error`, thrown while `command` ran. A `ValidationError` is followed by the command's own
    /// usage, named from the root (`Usage: swiftvision segment …`), as ArgumentParser prints one thrown by
    /// `validate()`; given the error, ArgumentParser alone knows only the root's usage.
    private static func exit(withError error: any Error, from command: any ParsableCommand.Type) -> Never {
        guard let error = error as? ValidationError else { SwiftVisionCommand.exit(withError: error) }
        let path = [SwiftVisionCommand.configuration.commandName, command.configuration.commandName].compactMap { $0 }
        let usage = SwiftVisionCommand.usageString(for: command)
        let text = """
            Error: \(error.message)
            Usage: \(usage)
              See '\(path.joined(separator: " ")) --help' for more information.

            """
        FileHandle.standardError.write(Data(text.utf8))
        SwiftVisionCommand.exit(withError: ExitCode.validationFailure)
    }
}

/// The root command: its subcommands are the tool's commands.
struct SwiftVisionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swiftvision",
        abstract: "On-device computer vision for Swift on Linux.",
        discussion: """
            Results are in pixels of the upright image (EXIF orientation applied), origin at the top left. \
            With --json every command prints JSON Lines: one object per input image, always with "file".
            """,
        subcommands: [
            InfoCommand.self, FacesCommand.self, PoseCommand.self, HandsCommand.self, ObjectsCommand.self, TrackCommand.self, SegmentCommand.self, RectanglesCommand.self,
            BarcodesCommand.self, TextCommand.self, LabelsCommand.self, EmbeddingsCommand.self, SimilarCommand.self,
            ModelCommand.self, ModelsCommand.self, TasksCommand.self, ServeCommand.self, SetupCommand.self,
            IndexCommand.self, WatchCommand.self,
        ]
    )
}
