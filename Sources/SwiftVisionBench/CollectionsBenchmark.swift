import Foundation
import SwiftVision
import SwiftVisionCollections

/// The collections section of `make bench`.
///
/// Search: top 10 among seeded synthetic unit vectors of 1280 values (10⁴ and 10⁵ of them;
/// `BENCH_COLLECTION_SIZES=10000,100000,1000000` for others), 20 queries drawn the same way, each timed
/// 5 times, one thread on each side: ours exact and approximate (int8 first pass, exact re-rank), beside
/// numpy brute force and sqlite-vec on the same vectors and queries (Benchmarks/vector_search_peer.py).
/// The approximate rows give their recall of the exact top 10; the exact rows, their agreement with numpy's.
///
/// Ingest: the sample photos analysed (labels, objects, faces, embeddings) and stored, as many at once as
/// there are cores, against the limit those cores set: cores ÷ the sum of the four models' bare invokes.
enum CollectionsBenchmark {
    static let dimension = 1280
    static let queries = 20
    static let iterations = 5
    static let k = 10

    struct PeerSearch: Decodable {
        var median: Double
        var iqr: Double
        var top: [[Int]]
    }

    struct PeerAnswer: Decodable {
        var numpy: PeerSearch
        var sqliteVec: PeerSearch
        var peakMiB: Double

        enum CodingKeys: String, CodingKey {
            case numpy
            case sqliteVec = "sqlite_vec"
            case peakMiB = "peak_mib"
        }
    }

    static func run(cache: SwiftVisionCache) throws {
        let sizes = ProcessInfo.processInfo.environment["BENCH_COLLECTION_SIZES"]?.split(separator: ",").compactMap { Int($0) }
            ?? [10_000, 100_000]
        print("\nSwiftVision benchmark — collections: top-\(k) search over seeded unit vectors × \(dimension), \(queries) queries × \(iterations),"
            + " 1 thread each side")
        print("peers: numpy brute force (OPENBLAS_NUM_THREADS=1) and sqlite-vec 0.1.9 (vec0, cosine), same vectors and queries")
        BenchmarkRow.printHeader()
        for count in sizes { try search(count: count, cache: cache) }
        try ingest(cache: cache)
    }

    private static func search(count: Int, cache: SwiftVisionCache) throws {
        var vectors = SyntheticVectors(seed: 1)
        let matrix = vectors.matrix(count: count, dimension: dimension)
        let queryVectors = (0..<queries).map { _ in vectors.next(dimension: dimension) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-bench-vectors-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let vectorFile = folder.appendingPathComponent("vectors.f32")
        let queryFile = folder.appendingPathComponent("queries.f32")
        try write(matrix.values, to: vectorFile)
        try write(queryVectors.flatMap { $0 }, to: queryFile)
        let peer = try PeerProcess.run(
            python: cache.root.appendingPathComponent("vectors-venv/bin/python"), script: "vector_search_peer.py",
            arguments: [vectorFile.path, queryFile.path, "\(dimension)", "\(iterations)", "\(count)"], as: PeerAnswer.self)

        let quantized = QuantizedMatrix(matrix)
        var exactSamples: [Double] = []
        var approximateSamples: [Double] = []
        var exactTop: [[Int]] = []
        var approximateTop: [[Int]] = []
        for query in queryVectors {
            exactSamples += sampleMilliseconds(iterations: iterations) { _ = matrix.nearest(to: query, k: k, threads: 1) }
            approximateSamples += sampleMilliseconds(iterations: iterations) {
                _ = matrix.nearestApproximately(to: query, k: k, quantized: quantized, threads: 1)
            }
            exactTop.append(matrix.nearest(to: query, k: k, threads: 1).map(\.row))
            approximateTop.append(matrix.nearestApproximately(to: query, k: k, quantized: quantized, threads: 1).map(\.row))
        }
        let size = count >= 1_000_000 ? "10⁶" : count >= 100_000 ? "10⁵" : count >= 10_000 ? "10⁴" : "\(count)"
        let agreement = overlap(exactTop, peer.numpy.top)
        let recall = overlap(approximateTop, exactTop)
        let exact = Timing(samples: exactSamples)
        let approximate = Timing(samples: approximateSamples)
        let peak = peakResidentMiB()
        for (task, ours, theirs) in [
            ("exact \(size) vs numpy (same top \(k): \(percent(agreement)))", exact, peer.numpy),
            ("exact \(size) vs sqlite-vec", exact, peer.sqliteVec),
            ("approximate \(size) vs numpy (recall \(percent(recall)))", approximate, peer.numpy),
            ("approximate \(size) vs sqlite-vec", approximate, peer.sqliteVec),
        ] {
            let row = BenchmarkRow(
                task: task, swift: ours.median, peer: theirs.median, peakMiB: peak, swiftIQR: ours.iqr, peerIQR: theirs.iqr)
            print(row.line)
        }
    }

    /// Writes `values` as raw float32 in pieces of 64 MB: one `Data.write` of more than 2 GB stops at 2 GB
    /// on Linux, which left the peers a truncated matrix at 10⁶ vectors.
    private static func write(_ values: [Float], to url: URL) throws {
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        try values.withUnsafeBytes { bytes in
            let piece = 64 << 20
            for start in stride(from: 0, to: bytes.count, by: piece) {
                try file.write(contentsOf: bytes[start..<min(start + piece, bytes.count)])
            }
        }
    }

    /// The share of `found`'s rows that `truth` holds, query by query.
    private static func overlap(_ found: [[Int]], _ truth: [[Int]]) -> Double {
        let shared = zip(found, truth).map { Set($0).intersection($1).count }.reduce(0, +)
        return Double(shared) / Double(max(1, truth.map(\.count).reduce(0, +)))
    }

    private static func percent(_ share: Double) -> String {
        String(format: "%.1f%%", share * 100)
    }

    private static func ingest(cache: SwiftVisionCache) throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // The model each default task invokes once per photo (faces: its short-range detector).
        let models = [
            LabelsTask.baseModelName, ObjectDetectionModel.defaultModelName, "face_detection_short_range.tflite",
            EmbeddingsTask.baseModelName,
        ]
        let floor = try models.map { try bareInvokeMilliseconds(of: $0, cache: cache, iterations: 20) }.reduce(0, +)
        let limit = Double(cores) * 1000 / floor
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-bench-ingest-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteCollectionStore(url: folder.appendingPathComponent("bench.sqlite"))
        let indexer = CollectionIndexer(
            store: store, collection: "bench", analyzer: try ItemAnalyzer(tasks: IndexedTask.defaults), videoExtensions: [],
            parallelItems: cores)
        let sources = indexer.sources(for: [cache.samples.path])
        let started = ContinuousClock.now
        let progress = indexer.index(sources, report: { _, _ in })
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        let rate = Double(progress.added) / seconds
        let share = HostLoad.shared.rowEnded() ? "busy" : String(format: "%.2f of it", rate / limit)
        print(String(
            format: "ingest: %d sample photos, %d at once: %.2f images/s; limit %.2f images/s (%d cores ÷ %.1f ms of bare invokes: %@) → %@",
            progress.added, cores, rate, limit, cores, floor, models.joined(separator: ", ") as NSString, share as NSString))
    }
}
