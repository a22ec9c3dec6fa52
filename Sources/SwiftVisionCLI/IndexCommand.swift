import ArgumentParser
import Foundation
import SwiftVision
import SwiftVisionCollections

/// `swiftvision index`: collections of analysed photos and video frames, kept in SQLite or PostgreSQL and searched by
/// image, label, faces, text and barcode.
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index photo and video collections; search them by image, label, faces, text and barcode.",
        discussion: """
            Collections live in one SQLite file, by default collections/collections.sqlite in the cache folder, \
            or in a PostgreSQL database that several machines share (--database). See docs/collections.md.
            """,
        subcommands: [Add.self, Prune.self, Search.self, Duplicates.self, Export.self, List.self, Bench.self])
}

/// `--database`, shared by every `index` subcommand.
struct CollectionDatabaseOptions: ParsableArguments {
    @Option(
        help: """
            The collections' SQLite file (collections/collections.sqlite in the cache folder by default), or a \
            PostgreSQL database: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.
            """)
    var database: String?

    /// Where the collections are.
    var location: CollectionStoreLocation { CollectionStoreLocation(database) }

    /// Opens the store for adding, making it when missing.
    func open() throws -> any CollectionStore {
        try location.open()
    }

    /// Opens the store for reading; a missing SQLite file is an error rather than a new, empty database.
    func openExisting() throws -> any CollectionStore {
        guard location.mayHoldCollections else { throw MissingDatabase(path: location.description) }
        return try open()
    }
}

/// A read-only command named a database file that does not exist (exit status 1).
struct MissingDatabase: Error, CustomStringConvertible, LocalizedError {
    var path: String
    var description: String { "no collections at \(path): swiftvision index add makes them" }
    var errorDescription: String? { description }
}

/// A collection item as the commands print it: `"file"` first, as every JSON line has.
struct ItemLine: Encodable {
    var file: String
    var id: Int64
    var timestampMs: Int?
    var width: Int
    var height: Int
    var contentHash: String
    var score: Float?

    init(_ item: CollectionItem, score: Float? = nil) {
        file = item.source
        id = item.id
        timestampMs = item.timestampMs
        width = item.width
        height = item.height
        contentHash = item.contentHash
        self.score = score
    }

    /// One line of plain text: score (when ranked), id, source and frame time.
    var text: String {
        (score.map { String(format: "%.4f  ", $0) } ?? "") + "#\(id)  \(file)" + (timestampMs.map { " @ \($0) ms" } ?? "")
    }
}

extension IndexCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add photos and videos (files, or folders searched at any depth) to a collection.",
            discussion: """
                Pictures the collection has (same SHA-256) are skipped; each one is written with all its analyses \
                at once, so a run stopped at any point is resumed by running it again (stopped by Ctrl-C, its exit \
                status is 130). Unreadable files are recorded and the others indexed; the exit status is then 1.
                """)

        @Argument(help: "The collection's name (made when missing).")
        var collection: String

        @Argument(help: "Photos, videos and folders.")
        var paths: [String]

        @Option(help: "Tasks to run, comma-separated: labels, objects, faces, text, barcodes, embeddings.")
        var tasks = IndexedTask.defaults.map(\.rawValue).joined(separator: ",")

        @Option(help: "Seconds between the frames sampled from videos.")
        var every = 1.0

        @Flag(inversion: .prefixedNo, help: "Also sample the first frame of each new shot of a video (after a hard cut).")
        var sceneCuts = true

        @Option(help: "Pictures analysed at once; the number of processors by default.")
        var parallel = ProcessInfo.processInfo.activeProcessorCount

        @Flag(help: "Print a JSON line per picture: file, timestampMs, status (added, skipped, failed), id, error.")
        var json = false

        @OptionGroup var store: CollectionDatabaseOptions
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            guard IndexedTask.list(tasks) != nil else {
                throw ValidationError("--tasks takes a comma-separated list of \(IndexedTask.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard every.isFinite, every > 0 else { throw ValidationError("--every takes a number of seconds above 0") }
            guard (1...256).contains(parallel) else { throw ValidationError("--parallel takes 1 to 256") }
            guard (1...200).contains(collection.count) else { throw ValidationError("a collection's name has 1 to 200 characters") }
        }

        func run() throws {
            let database = try store.open()
            let analyzer: ItemAnalyzer
            do {
                analyzer = try ItemAnalyzer(
                    tasks: IndexedTask.list(tasks) ?? IndexedTask.defaults, threads: ItemAnalyzer.threads(forParallelItems: parallel))
            } catch {
                try MediaFiles.reportFailure(of: "models", error: error, json: json)
                throw ExitCode(1)
            }
            let indexer = CollectionIndexer(
                store: database, collection: collection, analyzer: analyzer, videoExtensions: MediaFiles.videoExtensions,
                sampleInterval: every, samplesSceneCuts: sceneCuts, parallelItems: parallel)
            // Absolute paths, so that an item's source names its file from any folder, and a file named
            // from another folder later is the same source (its failure cleared, not recorded twice).
            let sources = indexer.sources(for: paths.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
            Interruption.install()
            let display = IngestProgressDisplay(total: sources.count)
            let json = json
            let final = indexer.index(sources, shouldStop: { Interruption.isRequested }) { event, progress in
                if event.status == .failed { Diagnostics.note("\(event.file): \(event.error ?? "failed")") }
                if json, event.status != .finished { try? JSONLines.print(event) }
                display.update(progress)
            }
            display.finish(final, stopped: Interruption.isRequested)
            if !json {
                print("\(collection): \(final.added) added, \(final.skipped) already indexed, \(final.failed) failed")
            }
            // Stopped before the end: a script must not take the collection for complete.
            if Interruption.isRequested { throw Interruption.exitCode }
            if final.failed > 0 { throw ExitCode(1) }
        }
    }

    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find items: filters first (labels, text, faces, barcode), then similarity to an image or item.",
            discussion: "Without --image or --item, the matching items are listed in the order they were added.")

        @Argument(help: "The collection's name.")
        var collection: String

        @Option(help: "Rank by cosine similarity to this photo.")
        var image: String?

        @Option(help: "Rank by cosine similarity to this item of the collection.")
        var item: Int64?

        @Option(name: .customLong("label"), help: "A label or object class the items must have (any case); repeatable.")
        var labels: [String] = []

        @Option(name: .customLong("no-label"), help: "A label or object class the items must not have; repeatable.")
        var excludedLabels: [String] = []

        @Option(help: "Words the items' recognised text must contain (full-text search; indexed with --tasks text).")
        var text: String?

        @Option(help: "How many faces: 2, 2.. (two or more), ..3 (at most three), 1..2.")
        var faces: String?

        @Option(help: "A barcode's exact text the items must carry (indexed with --tasks barcodes).")
        var barcode: String?

        @Option(help: "Most items to return.")
        var k = 10

        @Flag(help: "Rank with an int8 first pass and exact scores for the best (about 4 times less memory read; see docs/collections.md).")
        var approximate = false

        @Flag(help: "Print JSON Lines: file, id, timestampMs, width, height, contentHash, score.")
        var json = false

        @OptionGroup var store: CollectionDatabaseOptions
        @OptionGroup var logging: LoggingOptions

        func validate() throws {
            guard image == nil || item == nil else { throw ValidationError("give --image or --item, not both") }
            guard (1...100_000).contains(k) else { throw ValidationError("--k takes 1 to 100000") }
            if let faces, CollectionQuery.faceRange(faces) == nil {
                throw ValidationError("--faces takes a count or a range of counts: 2, 2.., ..3, 1..2")
            }
        }

        func run() throws {
            let database = try store.openExisting()
            var query = CollectionQuery()
            query.labels = labels
            query.excludedLabels = excludedLabels
            query.text = text
            query.faceCount = faces.flatMap(CollectionQuery.faceRange)
            query.barcode = barcode
            query.limit = k
            query.approximate = approximate
            if let image {
                do {
                    query.vector = try ItemAnalyzer(tasks: [.embeddings]).embedding(of: VisionImage(contentsOf: URL(fileURLWithPath: image)))
                } catch {
                    try MediaFiles.reportFailure(of: image, error: error, json: json)
                    throw ExitCode(1)
                }
            } else if let item {
                guard try database.item(id: item, in: collection) != nil else {
                    throw CollectionStoreError.unknownItem(item, collection: collection)
                }
                guard let vector = try database.embedding(ofItem: item) else { throw CollectionStoreError.noEmbedding(item) }
                query.vector = vector
            }
            for hit in try database.search(query, in: collection) {
                let line = ItemLine(hit.item, score: hit.score)
                try AnalysisOutput.print(line, json: json) { [$0.text] }
            }
        }
    }

    struct Duplicates: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Group near-duplicates: items whose embeddings have a cosine similarity of at least the threshold.")

        @Argument(help: "The collection's name.")
        var collection: String

        @Option(help: "Lowest cosine similarity of two near-duplicates, 0–1.")
        var threshold: Float = 0.95

        @Flag(help: "Print a JSON line per group: group (from 1) and items (file, id, …).")
        var json = false

        @OptionGroup var store: CollectionDatabaseOptions

        struct GroupLine: Encodable {
            var group: Int
            var items: [ItemLine]
        }

        func validate() throws {
            guard threshold.isFinite, (0...1).contains(threshold) else { throw ValidationError("--threshold takes 0 to 1") }
        }

        func run() throws {
            let groups = try store.openExisting().duplicateGroups(in: collection, threshold: threshold)
            for (index, group) in groups.enumerated() {
                let line = GroupLine(group: index + 1, items: group.map { ItemLine($0) })
                try AnalysisOutput.print(line, json: json) { line in ["group \(line.group):"] + line.items.map { "  " + $0.text } }
            }
        }
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every item of a collection with its analyses as JSON Lines.",
            discussion: "Each line: the item (file, id, contentHash, timestampMs, width, height, orientation, addedAt) and each task's JSON under its name.")

        @Argument(help: "The collection's name.")
        var collection: String

        @OptionGroup var store: CollectionDatabaseOptions

        func run() throws {
            let dates = ISO8601DateFormatter()
            try store.openExisting().forEachItem(in: collection) { exported in
                let item = exported.item
                var object: [String: Any] = [
                    "file": item.source, "id": item.id, "contentHash": item.contentHash, "width": item.width,
                    "height": item.height, "orientation": item.orientation, "addedAt": dates.string(from: item.addedAt),
                ]
                if let timestamp = item.timestampMs { object["timestampMs"] = timestamp }
                for (task, json) in exported.analyses { object[task] = try JSONSerialization.jsonObject(with: json) }
                let line = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
                StandardStream.output.write(line + Data("\n".utf8))
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the collections with their counts.")

        @Flag(help: "Print a JSON line per collection: name, items, failures, createdAt.")
        var json = false

        @OptionGroup var store: CollectionDatabaseOptions

        func run() throws {
            let collections = store.location.mayHoldCollections ? try store.open().collections() : []
            if !json, collections.isEmpty { print("no collections in \(store.location)") }
            for summary in collections {
                try AnalysisOutput.print(summary, json: json) { ["\($0.name): \($0.items) items, \($0.failures) failed"] }
            }
        }
    }
}

extension IndexCommand {
    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove the items whose file is gone or has changed since it was indexed.",
            discussion: """
                `index add` never removes anything: a deleted file's items and a changed file's old version stay. \
                Prune removes the items whose file no longer exists or no longer has the item's SHA-256; a file \
                that is there but cannot be read is kept. Run it with the files' disk mounted.
                """)

        @Argument(help: "The collection's name.")
        var collection: String

        @Flag(help: "Print a JSON line per removed item.")
        var json = false

        @OptionGroup var store: CollectionDatabaseOptions

        func run() throws {
            let removed = try store.openExisting().prune(collection)
            for item in removed { try AnalysisOutput.print(ItemLine(item), json: json) { ["removed \($0.text)"] } }
            if !json { print("\(collection): \(removed.count) removed") }
        }
    }
}

extension IndexCommand {
    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure ingest (images/s on photos) and exact search (latency over seeded synthetic vectors).",
            discussion: "Build with -c release for figures worth quoting.")

        @Option(help: "A folder of photos to ingest into a temporary database; the sample photos by default.")
        var photos = SwiftVisionCache.current.samples.path

        @Option(help: "Collection sizes to search, comma-separated.")
        var sizes = "10000,100000"

        @Option(help: "Values per synthetic vector.")
        var dimension = 1280

        @Option(help: "Queries timed per size.")
        var queries = 20

        @Option(help: "Seed of the synthetic vectors.")
        var seed: UInt64 = 1

        @Flag(help: "Print JSON Lines.")
        var json = false

        struct IngestLine: Encodable {
            var benchmark = "ingest"
            var images: Int
            var seconds: Double
            var imagesPerSecond: Double
            var parallel: Int
        }

        struct SearchLine: Encodable {
            var benchmark = "search"
            var vectors: Int
            var dimension: Int
            var k: Int
            var medianMs: Double
            var slowestMs: Double
        }

        func validate() throws {
            guard let counts = Self.counts(sizes), counts.allSatisfy({ (1...2_000_000).contains($0) }) else {
                throw ValidationError("--sizes takes comma-separated counts of 1 to 2000000")
            }
            guard (1...4096).contains(dimension), (1...10_000).contains(queries) else {
                throw ValidationError("--dimension takes 1 to 4096, --queries 1 to 10000")
            }
        }

        static func counts(_ text: String) -> [Int]? {
            let counts = text.split(separator: ",").map { Int($0) }
            return counts.isEmpty || counts.contains(nil) ? nil : counts.compactMap { $0 }
        }

        func run() throws {
            try benchmarkIngest()
            for count in Self.counts(sizes) ?? [] { try benchmarkSearch(count: count) }
        }

        private func benchmarkIngest() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-index-bench-\(getpid())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = try SQLiteCollectionStore(url: folder.appendingPathComponent("bench.sqlite"))
            let parallel = ProcessInfo.processInfo.activeProcessorCount
            let indexer = CollectionIndexer(
                store: store, collection: "bench",
                analyzer: try ItemAnalyzer(tasks: IndexedTask.defaults, threads: ItemAnalyzer.threads(forParallelItems: parallel)),
                videoExtensions: [], parallelItems: parallel)
            let sources = indexer.sources(for: [photos])
            let started = ContinuousClock.now
            let progress = indexer.index(sources, report: { event, _ in
                if event.status == .failed { Diagnostics.note("\(event.file): \(event.error ?? "failed")") }
            })
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            // A rate over pictures that failed would time nothing worth quoting.
            if progress.failed > 0 { throw ExitCode(1) }
            let line = IngestLine(images: progress.added, seconds: seconds, imagesPerSecond: Double(progress.added) / seconds, parallel: parallel)
            try AnalysisOutput.print(line, json: json) {
                [String(format: "ingest: %d images in %.2f s, %.2f images/s (%d at once; labels, objects, faces, embeddings)", $0.images, $0.seconds, $0.imagesPerSecond, $0.parallel)]
            }
        }

        private func benchmarkSearch(count: Int) throws {
            var vectors = SyntheticVectors(seed: seed)
            let matrix = vectors.matrix(count: count, dimension: dimension)
            var times: [Double] = []
            for query in 0..<queries {
                let row = query * count / queries
                let vector = Array(matrix.values[row * dimension..<(row + 1) * dimension])
                let started = ContinuousClock.now
                let found = matrix.nearest(to: vector, k: 10)
                times.append((ContinuousClock.now - started) / .milliseconds(1))
                guard found.first?.row == row else { throw ValidationError("search missed vector \(row)") }
            }
            times.sort()
            let line = SearchLine(vectors: count, dimension: dimension, k: 10, medianMs: times[times.count / 2], slowestMs: times.last ?? 0)
            try AnalysisOutput.print(line, json: json) {
                [String(format: "exact search: %d vectors × %d, k 10: median %.2f ms, slowest %.2f ms", $0.vectors, $0.dimension, $0.medianMs, $0.slowestMs)]
            }
        }
    }
}

/// Progress of `index add` on standard error: a bar with the rate and the time left on a terminal,
/// otherwise a line every ten seconds; a last line when the run ends.
final class IngestProgressDisplay: @unchecked Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let started = ContinuousClock.now
    private var lastLine = ContinuousClock.now
    private let total: Int

    init(total: Int) {
        self.total = total
    }

    /// Called by the indexer, one call at a time.
    func update(_ progress: IndexProgress) {
        if isTerminal {
            let width = 30
            let filled = total > 0 ? min(width, progress.done * width / total) : 0
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            StandardStream.error.write("\rindex \(bar) \(summary(progress))\u{1B}[K")
        } else if ContinuousClock.now - lastLine >= .seconds(10) {
            lastLine = .now
            Diagnostics.note("index: \(summary(progress))")
        }
    }

    /// Ends the bar and says how the run went: of a stopped run, how many files it did of how many.
    func finish(_ progress: IndexProgress, stopped: Bool) {
        if isTerminal { StandardStream.error.write("\r\u{1B}[K") }
        let counts = "\(progress.added) added, \(progress.skipped) skipped, \(progress.failed) failed"
        if stopped {
            Diagnostics.note("index: stopped after \(progress.done) of \(total) files, \(counts); run again to go on")
        } else {
            Diagnostics.note("index: \(summary(progress)), \(counts)")
        }
    }

    private func summary(_ progress: IndexProgress) -> String {
        let elapsed = (ContinuousClock.now - started) / .seconds(1)
        let rate = elapsed > 0 ? Double(progress.done) / elapsed : 0
        let left = rate > 0 ? Int((Double(total - progress.done) / rate).rounded()) : nil
        let eta = left.map { String(format: "ETA %d:%02d", $0 / 60, $0 % 60) } ?? "ETA –"
        return "\(progress.done)/\(total) files, " + String(format: "%.2f/s, ", rate) + eta
    }
}
