import ArgumentParser
import Foundation
import SwiftVision

struct SegmentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segment", abstract: "Separate people from the background: a person mask per image or video frame.",
        discussion: """
            The mask holds a confidence per pixel (MediaPipe's selfie segmentation model), at the size of the \
            upright image. --json prints the image's size, the fraction of person pixels (confidence ≥ 0.5) and \
            the model's 256×256 mask as a base64 8-bit gray PNG (scaled bilinearly to the image, it is the \
            image-size mask). Videos (.mp4, .mov, .avi, .mkv, .webm) are a stream: each \
            mask is smoothed with the previous frame's where it is unsure.
            """)

    @Argument(help: "Image or video files, or stream URLs (rtsp://, http://).")
    var inputs: [String] = []

    @Option(help: "Read frames from camera N (/dev/videoN) until Ctrl-C.")
    var camera: Int?

    @Flag(help: "Print JSON Lines.")
    var json = false

    @Option(help: "Write the mask as an 8-bit gray PNG, 255 = person (a folder when there are several inputs; videos get an .mp4).")
    var mask: String?

    @Option(help: "Write the image with the mask as a tinted overlay, or composited with --background (a folder when there are several inputs).")
    var draw: String?

    @Option(help: "Put this image behind the people, or 'blur' to blur the background; written to --draw's path.")
    var background: String?

    @Option(help: "In videos, how much of the previous mask uncertain pixels take, 0–1 (0: frames independent).")
    var smoothing: Float = 0.7

    /// The inputs, with the camera last.
    var sources: [String] { MediaFiles.inputs(inputs, camera: camera) }

    func validate() throws {
        if inputs.isEmpty && camera == nil { throw ValidationError("give image or video files, a stream URL, or --camera N") }
        if background != nil && draw == nil { throw ValidationError("--background composites an image: give --draw OUT") }
        if !(0...1).contains(smoothing) { throw ValidationError("--smoothing must lie in 0…1") }
    }

    func run() throws {
        var options = SegmentTask.Options()
        options.smoothing = smoothing
        let task = try CommandTask.load(options, json: json) as SegmentTask
        let backdrop = try background.map(Backdrop.init)
        MediaFiles.prepare(sources)
        defer { Interruption.flush() }
        try MediaFiles.process(sources, json: json) { url in
            if MediaFiles.isFrames(url) {
                try processVideo(url, runner: TaskRunner(task: task, runningMode: .video), backdrop: backdrop)
            } else {
                try processImage(url, task: task, backdrop: backdrop)
            }
        }
    }

    /// What goes behind the people with --background.
    enum Backdrop {
        case blur
        case image(VisionImage)

        init(_ argument: String) throws {
            if argument.lowercased() == "blur" {
                self = .blur
            } else {
                do {
                    self = .image(try VisionImage(contentsOf: URL(fileURLWithPath: argument)))
                } catch {
                    throw ValidationError("--background \(argument): \(error.localizedDescription)")
                }
            }
        }
    }

    private func processImage(_ url: URL, task: SegmentTask, backdrop: Backdrop?) throws {
        let image = try VisionImage(contentsOf: url)
        let output = try task.output(for: image)
        report(TaskLine(file: MediaFiles.name(of: url), output: output))
        if let destination = try MediaFiles.annotatedURL(for: url, draw: mask, inputCount: sources.count) {
            try output.mask.grayImage().write(to: destination)
        }
        if let destination = try MediaFiles.annotatedURL(for: url, draw: draw, inputCount: sources.count) {
            try rendered(image, output.mask, backdrop: backdrop).write(to: destination)
        }
    }

    private func processVideo(_ url: URL, runner: TaskRunner<SegmentTask>, backdrop: Backdrop?) throws {
        let reader = try MediaFiles.openVideo(url)
        func writer(_ path: String?) throws -> VideoWriter? {
            try MediaFiles.annotatedURL(for: url, draw: path, inputCount: sources.count).map {
                try VideoWriter(url: $0, width: reader.width, height: reader.height, framesPerSecond: reader.framesPerSecond)
            }
        }
        let maskWriter = try writer(mask)
        let drawWriter = try writer(draw)
        let progress = ProgressBar(total: reader.reportedFrameCount, label: url.lastPathComponent)
        for frame in reader {
            if Interruption.isRequested { break }
            let output = try runner.run(videoFrame: frame.image, timestampInMilliseconds: frame.timestampInMilliseconds)
            report(TaskLine(file: MediaFiles.name(of: url), frame: frame.index, timestampMs: frame.timestampInMilliseconds, output: output))
            if let maskWriter {
                try maskWriter.append(output.mask.resized(width: reader.width, height: reader.height).grayImage())
            }
            if let drawWriter {
                try drawWriter.append(rendered(frame.image, output.mask, backdrop: backdrop))
            }
            progress.update(frame.index + 1)
        }
        progress.finish()
        if let error = reader.error { throw error }
    }

    /// The image with the mask tinted over it, or composited over the backdrop.
    private func rendered(_ image: VisionImage, _ mask: SegmentationMask, backdrop: Backdrop?) throws -> VisionImage {
        var canvas = try ImageCanvas(image: image)
        switch backdrop {
        case nil: try canvas.drawMask(mask.plane, color: .blue, opacity: 0.55)
        case .blur: try canvas.blurBackground(keeping: mask.plane)
        case .image(let background): try canvas.replaceBackground(keeping: mask.plane, with: background)
        }
        return canvas.image
    }

    private func report(_ line: TaskLine<SegmentTask.Output>) {
        if json {
            try? JSONLines.print(line)
        } else {
            let place = line.frame.map { " frame \($0)" } ?? ""
            let output = line.output
            let percent = String(format: "%.1f", output.personFraction * 100)
            print("\(line.file ?? "")\(place): \(output.width)×\(output.height), person \(percent)% of pixels")
        }
    }
}
