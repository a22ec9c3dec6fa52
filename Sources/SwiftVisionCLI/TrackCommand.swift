import ArgumentParser
import Foundation
import SwiftVision

struct TrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track", abstract: "Follow objects through a video from seed boxes in its first frame.")

    @Argument(help: "A video file or a stream URL (rtsp://, http://).")
    var video: String?

    @Option(help: "Read frames from camera N (/dev/videoN) until Ctrl-C.")
    var camera: Int?

    @Option(name: .customLong("box"), help: "A seed box x,y,width,height in pixels of the first frame; repeat for several objects.")
    var boxes: [String]

    @Option(help: "fast (KCF) or accurate (CSRT).")
    var level: TrackTask.Level = .accurate

    @Flag(help: "Print JSON Lines.")
    var json = false

    @Option(help: "Write the annotated video here.")
    var draw: String?

    /// The video, stream or camera, as an input.
    var sources: [String] { MediaFiles.inputs(video.map { [$0] } ?? [], camera: camera) }

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (video == nil) != (camera == nil) else { throw ValidationError("give a video or a stream URL, or --camera N") }
        guard !boxes.isEmpty else { throw ValidationError("give at least one --box x,y,width,height") }
        for box in boxes where Self.rect(box) == nil {
            throw ValidationError("--box \(box) is not four finite numbers x,y,width,height with a positive width and height")
        }
    }

    static func rect(_ text: String) -> CGRect? {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        let values = fields.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard fields.count == 4, values.count == 4, values.allSatisfy(\.isFinite), values[2] > 0, values[3] > 0 else { return nil }
        return CGRect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    func run() throws {
        var options = TrackTask.Options()
        options.boxes = boxes.compactMap(Self.rect).map(PixelRect.init)
        options.level = level
        let task = try CommandTask.load(options, json: json) as TrackTask
        MediaFiles.prepare(sources)
        defer { Interruption.flush() }
        try MediaFiles.process(sources, json: json) { url in
            let reader = try MediaFiles.openVideo(url)
            let runner = TaskRunner(task: task, runningMode: .video)
            let writer = try draw.map { try VideoWriter(url: URL(fileURLWithPath: $0), width: reader.width, height: reader.height, framesPerSecond: reader.framesPerSecond) }
            let progress = ProgressBar(total: reader.reportedFrameCount, label: url.lastPathComponent)
            for frame in reader {
                if Interruption.isRequested { break }
                let output = try runner.run(videoFrame: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds)
                if json {
                    try JSONLines.print(TaskLine(file: MediaFiles.name(of: url), frame: frame.index, timestampMs: frame.timestampInMilliseconds, output: output))
                } else {
                    let states = output.tracks.map { $0.lost ? "#\($0.id) lost" : String(format: "#%d %.0f,%.0f %.2f", $0.id, $0.boundingBox.x, $0.boundingBox.y, $0.confidence) }
                    print("frame \(frame.index): " + states.joined(separator: "  "))
                }
                if let writer {
                    var canvas = try ImageCanvas(image: frame.image)
                    for track in output.tracks where !track.lost {
                        try canvas.drawRectangle(track.boundingBox.rect, color: .palette(track.id))
                        try canvas.drawLabel("#\(track.id)", at: track.boundingBox.rect.origin, color: .palette(track.id))
                    }
                    try writer.append(canvas.image)
                }
                progress.update(frame.index + 1)
            }
            progress.finish()
            writer?.close()
            if let error = reader.error { throw error }
        }
    }
}

extension TrackTask.Level: ExpressibleByArgument {}
