import ArgumentParser

@main
struct SwiftVisionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swiftvision",
        abstract: "On-device computer vision for Swift on Linux.",
        discussion: """
            Results are in pixels of the upright image (EXIF orientation applied), origin at the top left. \
            With --json every command prints JSON Lines: one object per input image, always with "file".
            """,
        subcommands: [
            InfoCommand.self, FacesCommand.self, PoseCommand.self, HandsCommand.self, DetectCommand.self, TrackCommand.self, SegmentCommand.self, RectanglesCommand.self,
            BarcodesCommand.self, TextCommand.self, LabelCommand.self, EmbedCommand.self, SimilarCommand.self,
            ModelCommand.self, ModelsCommand.self, TasksCommand.self, ServeCommand.self, SetupCommand.self,
        ]
    )
}
