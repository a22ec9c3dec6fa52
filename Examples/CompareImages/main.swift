// Compares two photos by their embeddings, written as an iOS app does with MediaPipe's ImageEmbedder:
// only the lines that make the images differ (files on Linux, UIImages on iOS).
//
//     swift run example-compare-images FIRST SECOND
import Foundation
import MediaPipeTasksVision

guard CommandLine.arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: example-compare-images FIRST SECOND\n".utf8))
    exit(64)
}

do {
    let options = ImageEmbedderOptions()
    options.runningMode = .image
    options.l2Normalize = true
    let embedder = try ImageEmbedder(options: options)
    let first = try embedder.embed(image: try MPImage(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1])))
    let second = try embedder.embed(image: try MPImage(contentsOf: URL(fileURLWithPath: CommandLine.arguments[2])))
    let similarity = try ImageEmbedder.cosineSimilarity(
        embedding1: first.embeddingResult.embeddings[0], embedding2: second.embeddingResult.embeddings[0])
    print(String(format: "cosine similarity %.4f", similarity.doubleValue))
} catch {
    FileHandle.standardError.write(Data("error: \(error.localizedDescription)\n".utf8))
    exit(1)
}
