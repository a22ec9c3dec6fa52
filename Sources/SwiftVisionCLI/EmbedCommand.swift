import ArgumentParser
import Foundation
import SwiftVision

struct EmbedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embed", abstract: "Compute image embeddings (feature vectors) for similarity search.")

    @Argument(help: "Image files.")
    var images: [String]

    @Option(help: "A custom .tflite embedder; the model zoo's EfficientNet-Lite0 embedder by default.")
    var model: String?

    @Flag(help: "Scale each embedding to unit length.")
    var l2Normalize = false

    @Flag(help: "Scalar-quantize each embedding to bytes −128…127 (MediaPipe's quantize option).")
    var quantize = false

    @Flag(help: "Print JSON Lines.")
    var json = false

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        var options = EmbeddingsTask.Options()
        options.model = model
        options.l2Normalize = l2Normalize
        options.quantize = quantize
        let task: EmbeddingsTask = try CommandTask.load(options, model: model ?? "base model", json: json)
        try AnalysisOutput.forEachImage(images, json: json, label: "embed") { url, image in
            let output = try task.output(for: image)
            try AnalysisOutput.print(TaskLine(file: url.relativePath, output: output), json: json) { line in
                guard let embedding = line.output.embeddings.first else { return ["\(line.fileName): no embedding"] }
                if let bytes = embedding.quantizedEmbedding {
                    let start = bytes.prefix(4).map { String($0) }.joined(separator: ", ")
                    return ["\(line.fileName): \(bytes.count) quantized values: [\(start), …]"]
                }
                let values = embedding.floatEmbedding ?? []
                let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
                let start = values.prefix(4).map { String(format: "%.4f", $0) }.joined(separator: ", ")
                return ["\(line.fileName): \(values.count) values, norm \(String(format: "%.3f", norm)): [\(start), …]"]
            }
        }
    }
}
