import ArgumentParser
import Foundation
import SwiftVision

struct SimilarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "similar",
        abstract: "Compare two images: cosine similarity of their embeddings and feature-print distance.",
        discussion: "Cosine similarity is −1…1 (1: the same picture); the feature-print distance is 0…2 (0: the same picture).")

    @Argument(help: "The first image.")
    var first: String

    @Argument(help: "The second image.")
    var second: String

    @Flag(help: "Print one JSON line.")
    var json = false

    struct Report: Encodable {
        var file: String
        var other: String
        var cosineSimilarity: Double
        var featurePrintDistance: Float
    }

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        var images: [VisionImage] = []
        try MediaFiles.process([first, second], json: json) { url in
            try MediaFiles.requireImage(url, for: "similar")
            images.append(try VisionImage(contentsOf: url))
        }
        do {
            // The feature print is the embedding at unit length, so its distance follows from the cosine.
            let embedder = try EmbeddingsTask(options: EmbeddingsTask.Options())
            let embeddings = try images.map { try embedder.output(for: $0).embeddings[0] }
            let cosine = try embeddings[0].cosineSimilarity(to: embeddings[1])
            let report = Report(
                file: first, other: second, cosineSimilarity: cosine,
                featurePrintDistance: Float(max(0, 2 - 2 * cosine).squareRoot()))
            if json {
                try JSONLines.print(report)
            } else {
                print(String(format: "cosine similarity %.4f, feature-print distance %.4f", report.cosineSimilarity, report.featurePrintDistance))
            }
        } catch {
            try MediaFiles.reportFailure(of: first, error: error, json: json)
            throw ExitCode(1)
        }
    }
}
