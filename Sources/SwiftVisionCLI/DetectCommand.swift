import ArgumentParser
import Foundation
import SwiftVision

struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect", abstract: "Detect objects in images, and track them through videos.",
        discussion: "Videos (.mp4, .mov, .avi, .mkv, .webm) run in stream mode: objects keep tracking IDs across frames.")

    @Argument(help: "Image or video files, or stream URLs (rtsp://, http://).")
    var inputs: [String] = []

    @Option(help: "Read frames from camera N (/dev/videoN) until Ctrl-C.")
    var camera: Int?

    @Flag(help: "Report up to five objects, not only the most prominent one.")
    var multiple = false

    @Flag(help: "Label each object with its COCO class and ML Kit's coarse category.")
    var classify = false

    @Option(help: "A .tflite image classifier that labels each object's crop (labels and normalisation from its metadata).")
    var model: String?

    @Option(help: "Lowest detection score to report, 0–1 (default 0.25).")
    var threshold: Float?

    @Option(help: "With --model: lowest label confidence, 0–1 (default: the model's metadata, else 0).")
    var classificationThreshold: Float?

    @Option(help: "With --model: most labels per object.")
    var maxLabels = 10

    @Flag(inversion: .prefixedNo, help: "In videos and streams, end every track at a cut between shots, so that the next shot gets new IDs.")
    var sceneCuts = true

    @Flag(help: "Print JSON Lines.")
    var json = false

    @Option(help: "Write the annotated image or video here (a folder when there are several inputs).")
    var draw: String?

    /// The inputs, with the camera last.
    var sources: [String] { MediaFiles.inputs(inputs, camera: camera) }

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        if inputs.isEmpty && camera == nil { throw ValidationError("give image or video files, a stream URL, or --camera N") }
    }

    func run() throws {
        var options = ObjectsTask.Options()
        options.multiple = multiple
        options.sceneCuts = sceneCuts
        options.classify = classify || model != nil
        options.model = model
        options.threshold = threshold
        options.classificationThreshold = classificationThreshold
        options.maxLabels = maxLabels
        let task = try CommandTask.load(options, model: model, json: json) as ObjectsTask
        MediaFiles.prepare(sources)
        defer { Interruption.flush() }
        try MediaFiles.process(sources, json: json) { url in
            let output = try MediaFiles.annotatedURL(for: url, draw: draw, inputCount: sources.count)
            if MediaFiles.isFrames(url) {
                try MediaFiles.processFrames(
                    url, runner: TaskRunner(task: task, runningMode: .video), annotated: output, report: report,
                    annotate: { try annotated($0, $1.objects) })
            } else {
                let image = try VisionImage(contentsOf: url)
                let objects = try task.output(for: image)
                report(TaskLine(file: MediaFiles.name(of: url), output: objects))
                if let output { try annotated(image, objects.objects).write(to: output) }
            }
        }
    }

    private func report(_ line: TaskLine<ObjectsTask.Output>) {
        if json {
            try? JSONLines.print(line)
            return
        }
        print("\(line.fileName)\(line.frame.map { " frame \($0)" } ?? ""): \(line.output.objects.count) object(s)")
        for object in line.output.objects {
            let box = object.frame
            let labels = object.labels.map { String(format: "%@ %.2f", $0.text, $0.confidence) }.joined(separator: ", ")
            print(String(format: "  %.0f,%.0f %.0f×%.0f", box.minX, box.minY, box.width, box.height)
                + (object.trackingID.map { " id \($0)" } ?? "") + (labels.isEmpty ? "" : " \(labels)"))
        }
    }

    private func annotated(_ image: VisionImage, _ objects: [DetectedObject]) throws -> VisionImage {
        var canvas = try ImageCanvas(image: image)
        for object in objects {
            let color = DrawingColor.palette(object.trackingID ?? object.labels.last?.index ?? 0)
            try canvas.drawRectangle(object.frame, color: color)
            let caption = ([object.trackingID.map { "#\($0)" }] + [object.labels.last.map { String(format: "%@ %.2f", $0.text, $0.confidence) }])
                .compactMap { $0 }.joined(separator: " ")
            if !caption.isEmpty { try canvas.drawLabel(caption, at: object.frame.origin, color: color) }
        }
        return canvas.image
    }
}
