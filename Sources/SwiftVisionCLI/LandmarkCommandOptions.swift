import ArgumentParser
import Foundation
import SwiftVision

/// The inputs and options the landmark commands (`pose`, `hands`) share.
struct LandmarkCommandOptions: ParsableArguments {
    @Argument(help: "Image or video files, or stream URLs (rtsp://, http://).")
    var inputs: [String] = []

    @Option(help: "Read frames from camera N (/dev/videoN) until Ctrl-C.")
    var camera: Int?

    @Option(help: "Lowest detector score that starts a new pose or hand, 0–1.")
    var minDetectionConfidence: Float = 0.5

    @Option(help: "Lowest confidence of the landmark model that keeps a pose or hand, 0–1.")
    var minPresenceConfidence: Float = 0.5

    @Flag(help: "Print JSON Lines.")
    var json = false

    @Option(help: "Write the image or video with the skeletons drawn here (a folder when there are several inputs).")
    var draw: String?

    /// The inputs, with the camera last.
    var sources: [String] { MediaFiles.inputs(inputs, camera: camera) }

    func validate() throws {
        if inputs.isEmpty && camera == nil { throw ValidationError("give image or video files, a stream URL, or --camera N") }
    }

    /// Runs `task` on every source, printing with `report` and drawing with `annotate` (see ``MediaFiles/run``).
    func run<Task: VisionTask>(
        _ task: Task, report: (TaskLine<Task.Output>) -> Void, annotate: (VisionImage, Task.Output) throws -> VisionImage
    ) throws {
        try MediaFiles.run(task, on: sources, json: json, draw: draw, report: report, annotate: annotate)
    }
}
