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

    @Flag(help: "Print JSON Lines.")
    var json = false

    struct Report: Encodable {
        var file: String
        var embedding: [Float]
    }

    func run() throws {
        var options = model.map { ImageEmbedderOptions(localModel: LocalModel(path: $0)) } ?? ImageEmbedderOptions()
        options.l2Normalize = l2Normalize
        let embedder: ImageEmbedder
        do {
            embedder = try ImageEmbedder(options: options)
        } catch {
            try MediaFiles.reportFailure(of: model ?? "base model", error: error, json: json)
            throw ExitCode(1)
        }
        try AnalysisOutput.forEachImage(images, json: json, label: "embed") { url, image in
            let file = url.relativePath
            let values = try embedder.embed(image: image).embeddings[0].floatEmbedding ?? []
            if json {
                try JSONLines.print(Report(file: file, embedding: values))
            } else {
                let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
                let start = values.prefix(4).map { String(format: "%.4f", $0) }.joined(separator: ", ")
                print("\(file): \(values.count) values, norm \(String(format: "%.3f", norm)): [\(start), …]")
            }
        }
    }
}
