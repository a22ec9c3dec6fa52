import ArgumentParser
import Foundation
import SwiftVision

struct LabelsCommand: TaskCommand {
    typealias Task = LabelsTask

    static let aliases = ["label"]

    @OptionGroup var input: InputOptions

    @Option(help: "Lowest confidence to report, 0–1.")
    var threshold: Float = 0.5

    @Option(help: "Most labels per image.")
    var max = 10

    @Option(help: "A custom .tflite classifier (a path, or a model's name as models list shows it); labels and normalisation come from its metadata.")
    var model: String?

    @Flag(help: "General labels (Dog, Pet, Vehicle, …) from WordNet instead of ImageNet's classes; base model only.")
    var general = false

    @OptionGroup var logging: LoggingOptions

    func makeTask() throws -> LabelsTask {
        var options = LabelsTask.Options()
        options.threshold = threshold
        options.max = max
        options.model = try model.map(ModelsCommand.modelFile)
        options.general = general
        return try CommandTask.load(options, model: model ?? "base model", json: input.json)
    }

    func describe(_ line: TaskLine<LabelsTask.Output>) -> [String] {
        return [line.output.labels.isEmpty ? "\(line.place): no label at or above \(threshold)" : "\(line.place):"]
            + line.output.labels.map { label in
                String(format: "  %.3f  ", label.confidence) + (label.text.isEmpty ? "#\(label.index)" : label.text)
            }
    }
}
