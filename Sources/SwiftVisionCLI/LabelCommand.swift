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

    @Flag(help: "Print JSON Lines.")
    var json = false

    struct Report: Encodable {
        var file: String
        var labels: [ImageLabel]
    }

    func run() throws {
        var options = model.map { ImageLabelerOptions(localModel: LocalModel(path: $0)) } ?? ImageLabelerOptions()
        options.confidenceThreshold = threshold
        options.maxResultCount = max
        let labeler: ImageLabeler
        do {
            labeler = try ImageLabeler(options: options)
        } catch {
            try MediaFiles.reportFailure(of: model ?? "base model", error: error, json: json)
            throw ExitCode(1)
        }
        try AnalysisOutput.forEachImage(images, json: json, label: "label") { url, image in
            let file = url.relativePath
            let labels = try labeler.results(in: image).map { label in
                ImageLabel(text: label.text, confidence: (label.confidence * 10_000).rounded() / 10_000, index: label.index)
            }
            if json {
                try JSONLines.print(Report(file: file, labels: labels))
            } else {
                print(labels.isEmpty ? "\(file): no label at or above \(threshold)" : "\(file):")
                for label in labels {
                    print(String(format: "  %.3f  ", label.confidence) + (label.text.isEmpty ? "#\(label.index)" : label.text))
                }
            }
        }
    }
}
