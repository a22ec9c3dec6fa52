import ArgumentParser
import Foundation
import SwiftVision

/// A command that runs one task of ``TaskRegistry/standard`` over its inputs: its name and abstract are the
/// task's, and every such command reads images, folders, videos, streams and the camera through one loop
/// (``TaskInputs``). A command states only its flags, how they make the task, how a result reads as text,
/// and what it can draw.
protocol TaskCommand: ParsableCommand {
    associatedtype Task: VisionTask

    /// Earlier names of the command that still run it.
    static var aliases: [String] { get }
    /// More on the command for `--help`.
    static var discussion: String { get }
    /// The inputs and `--json`.
    var input: InputOptions { get }
    /// The drawings the command's options ask for.
    var renderings: [Rendering<Task.Output>] { get }

    /// The task, made from the command's options.
    func makeTask() throws -> Task
    /// A result as plain-text lines.
    func describe(_ line: TaskLine<Task.Output>) -> [String]
}

extension TaskCommand {
    /// The task's name and summary as the command's name and abstract.
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: Task.descriptor.name, abstract: Task.descriptor.summary + ".", discussion: discussion,
            aliases: aliases)
    }

    static var aliases: [String] { [] }
    static var discussion: String { "" }
    var renderings: [Rendering<Task.Output>] { [] }

    func run() throws {
        try TaskInputs.run(try makeTask(), on: input.sources, json: input.json, renderings: renderings, describe: describe)
    }
}

/// The inputs every task command takes, and `--json`.
struct InputOptions: ParsableArguments {
    @Argument(help: "Images, videos, folders of them (searched at any depth), stream URLs (rtsp://, http://), or - for an image on standard input.")
    var inputs: [String] = []

    @Option(help: "Read frames from camera N (/dev/videoN) until Ctrl-C.")
    var camera: Int?

    @Flag(help: "Print JSON Lines.")
    var json = false

    /// The inputs with each folder replaced by its images and videos, then the camera.
    var sources: [String] { MediaFiles.inputs(MediaFiles.expandingFolders(inputs), camera: camera) }

    func validate() throws {
        if inputs.isEmpty && camera == nil { throw ValidationError("give images, videos, a folder, a stream URL, or --camera N") }
    }
}

/// A drawing a command writes when its option (`--draw`, `--mask`, `--correct`) names a destination: one
/// image per image, one video per video, stream or camera.
struct Rendering<Output> {
    /// The option's value: a file for one input, else a folder (see ``MediaFiles/annotatedURL(for:draw:inputCount:names:)``);
    /// nil when the option is not given.
    var destination: String?
    /// The drawing of `output` for `image`; nil when there is nothing to draw (no frame is written then).
    var render: (_ image: VisionImage, _ output: Output) throws -> VisionImage?
}

/// The one input loop of the task commands.
enum TaskInputs {
    /// Runs `task` on every source: an image on its own, a video, stream or camera frame by frame through a
    /// `.video` runner (until its end or Ctrl-C). Each result is a JSON line with `json` (frames add `frame`
    /// and `timestampMs`), else the lines `describe` makes; the drawings asked for are written. A source that
    /// fails gets an error line and the others go on (``MediaFiles/process(_:json:_:)``).
    static func run<Task: VisionTask>(
        _ task: Task, on sources: [String], json: Bool, renderings: [Rendering<Task.Output>],
        describe: (TaskLine<Task.Output>) -> [String]
    ) throws {
        MediaFiles.prepare(sources)
        defer { Interruption.flush() }
        func report(_ line: TaskLine<Task.Output>) throws {
            ProgressBar.clear()
            if json {
                try JSONLines.print(line)
            } else {
                describe(line).forEach { print($0) }
            }
        }
        let images = ProgressBar(total: sources.filter { !MediaFiles.isFrames(MediaFiles.source($0)) }.count, label: Task.descriptor.name, unit: "images")
        var imagesDone = 0
        defer { if imagesDone > 0 { images.finish() } }
        let drawingNames = MediaFiles.annotatedNames(of: sources)
        try MediaFiles.process(sources, json: json) { url in
            // Folders were replaced by their images and videos: one still here has none.
            var isFolder: ObjCBool = false
            if url.isFileURL, FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
                throw CLIError.folderWithoutMedia(url.path)
            }
            let drawings = try renderings.compactMap { rendering in
                try MediaFiles.annotatedURL(for: url, draw: rendering.destination, inputCount: sources.count, names: drawingNames).map { (rendering, $0) }
            }
            if MediaFiles.isFrames(url) {
                try runFrames(of: url, runner: TaskRunner(task: task, runningMode: .video), drawings: drawings, report: report)
                return
            }
            defer {
                imagesDone += 1
                images.update(imagesDone)
            }
            let image = try VisionImage(contentsOf: url)
            let output = try task.output(for: image)
            for (rendering, destination) in drawings {
                try rendering.render(image, output)?.write(to: destination)
            }
            try report(TaskLine(file: MediaFiles.name(of: url), output: output))
        }
    }

    /// Runs `runner` over every frame of the video, stream or camera `url`, appending each frame's drawings
    /// to a video per drawing and reporting each frame's line. A drawing keeps the frames' times (a live
    /// source's by arrival): at the steady rate, a drawing is repeated until the next frame is due (a variable
    /// rate's slower part, a camera slower than the rate its stream announces).
    private static func runFrames<Task: VisionTask>(
        of url: URL, runner: TaskRunner<Task>, drawings: [(Rendering<Task.Output>, URL)],
        report: (TaskLine<Task.Output>) throws -> Void
    ) throws {
        let reader = try MediaFiles.openVideo(url)
        let writers = try drawings.map { rendering, destination in
            (rendering, try VideoWriter(url: destination, width: reader.width, height: reader.height, framesPerSecond: reader.steadyFramesPerSecond))
        }
        // Per drawing, the frames written and the last one.
        var written = Array(repeating: (count: 0, last: VisionImage?.none), count: writers.count)
        let progress = ProgressBar(total: reader.reportedFrameCount, label: url.lastPathComponent, unit: "frames")
        defer {
            progress.finish()
            writers.forEach { $0.1.close() }
        }
        for frame in reader {
            if Interruption.isRequested { break }
            let output = try runner.run(videoFrame: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds)
            let due = Int((Double(frame.timestampInMilliseconds) * reader.steadyFramesPerSecond / 1000).rounded())
            for (index, (rendering, writer)) in writers.enumerated() {
                guard let drawn = try rendering.render(frame.image, output) else { continue }
                while written[index].count < due, let last = written[index].last {
                    try writer.append(last)
                    written[index].count += 1
                }
                try writer.append(drawn)
                written[index] = (written[index].count + 1, drawn)
            }
            try report(TaskLine(file: MediaFiles.name(of: url), frame: frame.index, timestampMs: frame.timestampInMilliseconds, output: output))
            progress.update(frame.index + 1)
        }
        if let error = reader.error { throw error }
    }
}
