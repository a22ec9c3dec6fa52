import Foundation
import SwiftVision

/// A task that indexing can run on each picture.
public enum IndexedTask: String, CaseIterable, Sendable, Codable {
    case labels, objects, faces, text, barcodes, embeddings

    /// What `index add` runs unless told otherwise: text and barcodes are left to those who ask.
    public static let defaults: [IndexedTask] = [.labels, .objects, .faces, .embeddings]

    /// The tasks named in a comma-separated list such as `labels,faces`; nil names an unknown task.
    public static func list(_ names: String) -> [IndexedTask]? {
        let tasks = names.split(separator: ",").map { IndexedTask(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
        guard !tasks.isEmpty, !tasks.contains(nil) else { return nil }
        return tasks.compactMap { $0 }
    }
}

/// Runs the chosen tasks on one picture with the settings every collection uses: general labels (Dog,
/// Vehicle, …), up to ten objects with their COCO classes, faces in accurate mode, text, barcodes, and
/// the unit-length EfficientNet-Lite0 embedding. Models come from the shared model store, so analysers on
/// several threads share them and run in parallel.
public struct ItemAnalyzer: Sendable {
    private let labels: LabelsTask?
    private let objects: ObjectsTask?
    private let faces: FacesTask?
    private let text: TextTask?
    private let barcodes: BarcodesTask?
    private let embeddings: EmbeddingsTask?

    /// The settings of each task as collections run it.
    public static var labelOptions: LabelsTask.Options {
        var options = LabelsTask.Options()
        options.general = true
        return options
    }

    /// Objects: several, classified.
    public static var objectOptions: ObjectsTask.Options {
        var options = ObjectsTask.Options()
        options.multiple = true
        options.classify = true
        options.maxObjects = 10
        return options
    }

    /// Embeddings scaled to unit length, so that the cosine similarity is the dot product.
    public static var embeddingOptions: EmbeddingsTask.Options {
        var options = EmbeddingsTask.Options()
        options.l2Normalize = true
        return options
    }

    /// Loads the models of `tasks` from `store`, each inference on `threads` LiteRT threads (nil: the
    /// tasks' default, up to 4 and at most the cores).
    public init(tasks: [IndexedTask], threads: Int? = nil, store: ModelStore = .shared) throws {
        let chosen = Set(tasks)
        func with<Options>(_ options: Options, _ threadCount: WritableKeyPath<Options, Int?>) -> Options {
            var options = options
            options[keyPath: threadCount] = threads
            return options
        }
        labels = chosen.contains(.labels) ? try LabelsTask(options: with(Self.labelOptions, \.threads), store: store) : nil
        objects = chosen.contains(.objects) ? try ObjectsTask(options: with(Self.objectOptions, \.threads), store: store) : nil
        faces = chosen.contains(.faces) ? try FacesTask(options: with(FacesTask.defaultOptions, \.threads), store: store) : nil
        text = chosen.contains(.text) ? try TextTask(options: TextTask.defaultOptions, store: store) : nil
        barcodes = chosen.contains(.barcodes) ? try BarcodesTask(options: BarcodesTask.defaultOptions, store: store) : nil
        embeddings =
            chosen.contains(.embeddings) ? try EmbeddingsTask(options: with(Self.embeddingOptions, \.threads), store: store) : nil
    }

    /// The LiteRT threads for each inference when `parallelItems` pictures are analysed at once: the
    /// cores shared out among them, at least 1. More would oversubscribe the cores, as each picture's
    /// inferences run beside the others'.
    public static func threads(forParallelItems parallelItems: Int) -> Int {
        max(1, ProcessInfo.processInfo.activeProcessorCount / max(1, parallelItems))
    }

    /// What the tasks find in `image`.
    public func analysis(of image: VisionImage) throws -> ItemAnalysis {
        var analysis = ItemAnalysis()
        analysis.labels = try labels?.output(for: image)
        analysis.objects = try objects?.output(for: image)
        analysis.faces = try faces?.output(for: image)
        analysis.text = try text?.output(for: image)
        analysis.barcodes = try barcodes?.output(for: image)
        analysis.embeddings = try embeddings?.output(for: image)
        return analysis
    }

    /// The unit-length embedding of `image`, to search with; the analyser must have been made with embeddings.
    public func embedding(of image: VisionImage) throws -> [Float] {
        guard let embeddings else { preconditionFailure("an analyser without embeddings") }
        return try embeddings.output(for: image).embeddings.first?.floatEmbedding ?? []
    }
}
