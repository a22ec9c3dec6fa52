import ArgumentParser
import Foundation
import SwiftVision

struct LabelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "label", abstract: "Label what images show (ImageNet classes, or a custom classifier's).")

    @Argument(help: "Image files.")
    var images: [String]

    @Option(help: "Lowest confidence to report, 0–1.")
    var threshold: Float = 0.5

    @Option(help: "Most labels per image.")
    var max = 10

    @Option(help: "A custom .tflite classifier; labels and normalisation come from its metadata.")
    var model: String?

    @Flag(help: "General labels (Dog, Pet, Vehicle, …) from WordNet instead of ImageNet's classes; base model only.")
    var general = false

    @Flag(help: "Print JSON Lines.")
    var json = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        var options = LabelsTask.Options()
        options.threshold = threshold
        options.max = max
        options.model = model
        options.general = general
        let task: LabelsTask = try CommandTask.load(options, model: model ?? "base model", json: json)
        try AnalysisOutput.forEachImage(images, json: json, label: "label") { url, image in
            let output = try task.output(for: image)
            try AnalysisOutput.print(TaskLine(file: url.relativePath, output: output), json: json) { line in
                [line.output.labels.isEmpty ? "\(line.fileName): no label at or above \(threshold)" : "\(line.fileName):"]
                    + line.output.labels.map { label in
                        String(format: "  %.3f  ", label.confidence) + (label.text.isEmpty ? "#\(label.index)" : label.text)
                    }
            }
        }
    }
}
