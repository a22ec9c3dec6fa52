import ArgumentParser
import Foundation
import SwiftVision

struct ObjectsCommand: TaskCommand {
    typealias Task = ObjectsTask

    static let aliases = ["detect"]
    static let discussion = "Videos (.mp4, .mov, .avi, .mkv, .webm) run in stream mode: objects keep tracking IDs across frames."

    @OptionGroup var input: InputOptions

    @Flag(help: "Report up to five objects, not only the most prominent one.")
    var multiple = false

    @Flag(help: "Label each object with its COCO class and ML Kit's coarse category.")
    var classify = false

    @Option(help: "A .tflite image classifier (a path, or a model's name as models list shows it) that labels each object's crop (labels and normalisation from its metadata).")
    var model: String?

    @Option(help: "Lowest detection score to report, 0–1 (default 0.25).")
    var threshold: Float?

    @Option(help: "With --model: lowest label confidence, 0–1 (default: the model's metadata, else 0).")
    var classificationThreshold: Float?

    @Option(help: "With --model: most labels per object.")
    var maxLabels = 10

    @Flag(inversion: .prefixedNo, help: "In videos and streams, end every track at a cut between shots, so that the next shot gets new IDs.")
    var sceneCuts = true

    @Option(help: "Write the annotated image or video here (a folder when there are several inputs).")
    var draw: String?

    @OptionGroup var logging: LoggingOptions

    func makeTask() throws -> ObjectsTask {
        var options = ObjectsTask.Options()
        options.multiple = multiple
        options.sceneCuts = sceneCuts
        options.classify = classify || model != nil
        options.model = try model.map(ModelsCommand.modelFile)
        options.threshold = threshold
        options.classificationThreshold = classificationThreshold
        options.maxLabels = maxLabels
        return try CommandTask.load(options, model: model, json: input.json)
    }

    func describe(_ line: TaskLine<ObjectsTask.Output>) -> [String] {
        ["\(line.place): \(line.output.objects.count) object(s)"]
            + line.output.objects.map { object in
                let box = object.frame
                let labels = object.labels.map { String(format: "%@ %.2f", $0.text, $0.confidence) }.joined(separator: ", ")
                return String(format: "  %.0f,%.0f %.0f×%.0f", box.minX, box.minY, box.width, box.height)
                    + (object.trackingID.map { " id \($0)" } ?? "") + (labels.isEmpty ? "" : " \(labels)")
            }
    }

    var renderings: [Rendering<ObjectsTask.Output>] {
        [Rendering(destination: draw) { image, output in
            var canvas = try ImageCanvas(image: image)
            for object in output.objects {
                let color = DrawingColor.palette(object.trackingID ?? object.labels.last?.index ?? 0)
                try canvas.drawRectangle(object.frame, color: color)
                let caption = ([object.trackingID.map { "#\($0)" }] + [object.labels.last.map { String(format: "%@ %.2f", $0.text, $0.confidence) }])
                    .compactMap { $0 }.joined(separator: " ")
                if !caption.isEmpty { try canvas.drawLabel(caption, at: object.frame.origin, color: color) }
            }
            return canvas.image
        }]
    }
}
