import Foundation
import SwiftVisionTestSupport
import Testing

@testable import MediaPipeTasksVision
@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// MediaPipe Python's labels and embeddings (Tests/Python/Reference/classifier_reference.py: ImageClassifier
/// and ImageEmbedder of the Tasks API on the model zoo's EfficientNet-Lite0 files).
enum ClassifierReference {
    struct Request: Encodable {
        var file: String
        /// Left, top, right, bottom in 0…1 of the image; nil for the whole image.
        var region: [Double]?
    }

    struct Category: Decodable {
        var index: Int
        var name: String
        var score: Float
    }

    struct Result: Decodable {
        var file: String
        var top: [Category]
        var embedding: [Float]
    }

    /// MediaPipe's `top` best categories and embedding for each request, in order.
    static func results(_ requests: [Request], top: Int) throws -> [Result] {
        let python = Fixtures.cache.root.appendingPathComponent("tools-venv/bin/python")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Python/Reference/classifier_reference.py")
        let json = String(decoding: try JSONEncoder().encode(requests), as: UTF8.self)
        let models = try [LabelsTask.baseModelName, EmbeddingsTask.baseModelName].map { try Fixtures.model($0).path }
        let run = try Fixtures.run(python, [script.path] + models + ["\(top)", json])
        try #require(run.status == 0, "classifier_reference.py failed (run `make test` to set up \(python.path)): \(run.errors)")
        let results = try JSONDecoder().decode([Result].self, from: Data(run.output.utf8))
        try #require(results.count == requests.count)
        return results
    }
}

/// The labeler and the embedder prepare the image as MediaPipe's ImageClassifier and ImageEmbedder do,
/// so on the same model files they agree with MediaPipe Python: photos of several sizes and aspect
/// ratios, a wide 3:1 strip, a small image that is enlarged, and regions of interest.
@Suite(.serialized) struct ClassifierFidelityTests {
    static let top = 5
    /// The tolerances leave room for OpenCV 4.6's `warpAffine` against MediaPipe's `warpPerspective`
    /// (both bilinear on 8-bit pixels) and for XNNPACK's kernels on other CPUs. Measured on this
    /// machine: every score and every embedding the same as MediaPipe's to float precision.
    static let maximumScoreDifference: Float = 0.02
    static let minimumCosine = 0.99

    /// Each image with a name, written as PNG to `folder` so that both sides read the same pixels.
    static func images(in folder: URL) throws -> [(name: String, image: VisionImage, file: URL)] {
        let photos = ["bus.jpg", "zidane.jpg", "coffee.png", "chelsea.png", "dog.jpg", "kite.jpg", "astronaut.png"]
        var images = try photos.map { ($0, try Fixtures.image($0)) }
        let strip = try LabelingFixtures.sideBySide(
            try Fixtures.image("chelsea.png"), try Fixtures.image("dog.jpg"), try Fixtures.image("horses.jpg"), side: 300)
        images.append(("3:1 strip", strip))
        images.append(("small coffee", try Fixtures.image("coffee.png").resized(width: 150, height: 100)))
        return try images.enumerated().map { index, entry in
            let file = folder.appendingPathComponent("\(index).png")
            try entry.1.write(to: file)
            return (entry.0, entry.1, file)
        }
    }

    /// The model zoo's labeler reporting all 1000 classes.
    static func labelerOfEveryClass() throws -> LabelsTask {
        var options = LabelsTask.Options()
        options.threshold = 0
        options.max = 1000
        return try LabelsTask(options: options, store: .shared)
    }

    /// Every score MediaPipe reports within the tolerance of ours for the same class, and the same best class.
    static func expectAgreement(_ ours: [ClassLabel], _ reference: ClassifierReference.Result, _ name: String) throws {
        let scores = Dictionary(uniqueKeysWithValues: ours.map { ($0.index, $0.confidence) })
        try #require(reference.top.count == top && ours.count == 1000)
        #expect(ours[0].index == reference.top[0].index, "\(name): \(ours[0].text) vs \(reference.top[0].name)")
        for category in reference.top {
            let score = try #require(scores[category.index])
            #expect(abs(score - category.score) <= maximumScoreDifference, "\(name) \(category.name): \(score) vs \(category.score)")
        }
    }

    @Test func labelsAndEmbeddingsMatchMediaPipePython() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let images = try Self.images(in: folder)
        let references = try ClassifierReference.results(images.map { .init(file: $0.file.path) }, top: Self.top)
        let labeler = try Self.labelerOfEveryClass()
        let embedder = try EmbeddingsTask(options: EmbeddingsTask.Options(), store: .shared)
        for (entry, reference) in zip(images, references) {
            try Self.expectAgreement(try labeler.output(for: entry.image).labels, reference, entry.name)
            let embedding = try #require(try embedder.output(for: entry.image).embeddings.first)
            let cosine = try embedding.cosineSimilarity(to: Embedding(floatEmbedding: reference.embedding))
            #expect(cosine >= Self.minimumCosine, "\(entry.name): cosine \(cosine)")
        }
    }

    @Test func regionsMatchMediaPipesRegionOfInterest() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(photo: String, regions: [CGRect])] = [
            ("bus.jpg", [CGRect(x: 40, y: 220, width: 220, height: 680), CGRect(x: 0, y: 200, width: 810, height: 560)]),
            ("zidane.jpg", [CGRect(x: 700, y: 20, width: 480, height: 700), CGRect(x: 100, y: 180, width: 900, height: 300)]),
        ]
        let labeler = try Self.labelerOfEveryClass()
        for (index, entry) in cases.enumerated() {
            let image = try Fixtures.image(entry.photo)
            let file = folder.appendingPathComponent("\(index).png")
            try image.write(to: file)
            let (width, height) = (Double(image.width), Double(image.height))
            let requests = entry.regions.map { region in
                ClassifierReference.Request(
                    file: file.path, region: [region.minX / width, region.minY / height, region.maxX / width, region.maxY / height])
            }
            let references = try ClassifierReference.results(requests, top: Self.top)
            let labels = try labeler.labels(in: image, regions: entry.regions)
            for (region, (ours, reference)) in zip(entry.regions, zip(labels, references)) {
                try Self.expectAgreement(ours, reference, "\(entry.photo) \(region)")
            }
        }
    }
}
