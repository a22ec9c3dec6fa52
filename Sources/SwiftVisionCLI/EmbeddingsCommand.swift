import ArgumentParser
import Foundation
import SwiftVision

struct EmbeddingsCommand: TaskCommand {
    typealias Task = EmbeddingsTask

    static let aliases = ["embed"]

    @OptionGroup var input: InputOptions

    @Option(help: "A custom .tflite embedder (a path, or a model's name as models list shows it); the model zoo's EfficientNet-Lite0 embedder by default.")
    var model: String?

    @Flag(help: "Scale each embedding to unit length.")
    var l2Normalize = false

    @Flag(help: "Scalar-quantize each embedding to bytes −128…127 (MediaPipe's quantize option).")
    var quantize = false

    @OptionGroup var logging: LoggingOptions

    func makeTask() throws -> EmbeddingsTask {
        var options = EmbeddingsTask.Options()
        options.model = try model.map(ModelsCommand.modelFile)
        options.l2Normalize = l2Normalize
        options.quantize = quantize
        return try CommandTask.load(options, model: model ?? "base model", json: input.json)
    }

    func describe(_ line: TaskLine<EmbeddingsTask.Output>) -> [String] {
        guard let embedding = line.output.embeddings.first else { return ["\(line.place): no embedding"] }
        if let bytes = embedding.quantizedEmbedding {
            let start = bytes.prefix(4).map { String($0) }.joined(separator: ", ")
            return ["\(line.place): \(bytes.count) quantized values: [\(start), …]"]
        }
        let values = embedding.floatEmbedding ?? []
        let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        let start = values.prefix(4).map { String(format: "%.4f", $0) }.joined(separator: ", ")
        return ["\(line.place): \(values.count) values, norm \(String(format: "%.3f", norm)): [\(start), …]"]
    }
}
