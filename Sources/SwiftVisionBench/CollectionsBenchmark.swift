import Foundation
import SwiftVision
import SwiftVisionCollections

/// The collections section of `make bench`.
///
/// Search: top 10 among seeded synthetic unit vectors of 1280 values (10⁴ and 10⁵ of them;
/// `BENCH_COLLECTION_SIZES=10000,100000,1000000` for others), 20 queries drawn the same way, each timed
/// 5 times (once at 10⁶, where a sqlite-vec query takes seconds), one thread on each side: ours exact and
/// approximate (int8 first pass, exact re-rank), beside numpy brute force and sqlite-vec on the same
/// vectors and queries (Benchmarks/vector_search_peer.py).
/// The approximate rows give their recall of the exact top 10; the exact rows, their agreement with numpy's.
///
/// Ingest: first a profile of one photo at a time (``IngestProfile``), then the sample photos analysed
/// (labels, objects, faces, embeddings) and stored, as many at once as there are cores, against the limit
/// those cores set: cores ÷ the CPU time of every model run ingest makes per photo, as the profile counts them.
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
        // Ingest first: the kernel's work of freeing the search's gigabytes would land in the profile's CPU times.
        try ingest(cache: cache)
        print("\nSwiftVision benchmark — collections: top-\(k) search over seeded unit vectors × \(dimension), \(queries) queries × \(iterations) (× 1 at 10⁶),"
            + " 1 thread each side")
        print("peers: numpy brute force (OPENBLAS_NUM_THREADS=1) and sqlite-vec 0.1.9 (vec0, cosine), same vectors and queries")
        BenchmarkRow.printHeader()
        for count in sizes { try search(count: count, cache: cache) }
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
        // At 10⁶ a sqlite-vec query takes seconds: each query is timed once there (after its warm-up).
        let iterations = count >= 1_000_000 ? 1 : Self.iterations
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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-bench-ingest-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sources = CollectionIndexer.files(in: cache.samples.path, videoExtensions: []) ?? []
        HostLoad.shared.beginTable()
        print("ingest profile: \(sources.count) sample photos one at a time, 1 thread (LiteRT, OpenCV); per photo: wall and thread CPU")
        let profile = try IngestProfile(sources: sources, cache: cache, folder: folder)
        profile.print()
        // The model each default task was once taken to invoke once per photo (faces: its short-range detector).
        let models = [
            LabelsTask.baseModelName, ObjectDetectionModel.defaultModelName, "face_detection_short_range.tflite",
            EmbeddingsTask.baseModelName,
        ]
        // Thread CPU time, as the profile's, so that a busy host does not inflate it.
        let bare = try models.map { name -> Double in
            let invoke = try bareInvoke(of: name, cache: cache)
            try invoke()
            return Timing(samples: try (0..<20).map { _ -> Double in
                let started = IngestProfile.threadCPUMilliseconds()
                try invoke()
                return IngestProfile.threadCPUMilliseconds() - started
            }).median
        }.reduce(0, +)
        print(String(
            format: "profile's limit: %.2f images/s = %d cores ÷ %.1f ms, the CPU time of every model run ingest makes per photo (mean, 1 thread);"
                + " the four bare invokes alone: %.1f ms → %.2f images/s", Double(cores) * 1000 / profile.modelCPUPerPhoto, cores, profile.modelCPUPerPhoto, bare,
            Double(cores) * 1000 / bare))
        print(String(format: "the most the ratio reaches while every step but the model runs is kept: %.2f (model runs ÷ all CPU a photo)",
            profile.modelCPUPerPhoto / profile.cpuPerPhoto))
        let perRun = ItemAnalyzer.threads(forParallelItems: cores)
        let settings: [(name: String, threads: Int?)] = [("threads as the tasks choose", nil), ("\(perRun) thread a run", perRun)]
        // The model runs are counted on one thread a run, where the calling thread's CPU time is all of a run's.
        let oneThread = try IngestProfile.interpreters(threads: perRun, cache: cache)
        var runs = settings.map { _ in [(rate: Double, cpu: Double, busyCores: Double, modelCPU: Double)]() }
        for round in -1..<3 {
            for (index, setting) in settings.enumerated() {
                let store = try SQLiteCollectionStore(url: folder.appendingPathComponent("bench-\(round)-\(index).sqlite"))
                let indexer = CollectionIndexer(
                    store: store, collection: "bench", analyzer: try ItemAnalyzer(tasks: IndexedTask.defaults, threads: setting.threads),
                    videoExtensions: [], parallelItems: cores)
                let (started, cpu, models) = (
                    ContinuousClock.now, IngestProfile.cpuMilliseconds(CLOCK_PROCESS_CPUTIME_ID), IngestProfile.ModelRuns(oneThread)
                )
                let added = Double(max(1, indexer.index(sources).added))
                let seconds = (ContinuousClock.now - started) / .seconds(1)
                let used = IngestProfile.cpuMilliseconds(CLOCK_PROCESS_CPUTIME_ID) - cpu
                let modelCPU = IngestProfile.ModelRuns(oneThread).cpu - models.cpu
                // Round -1 compiles the models' instances for each setting, untimed.
                if round >= 0 {
                    runs[index].append((added / seconds, used / added, used / (seconds * 1000 * Double(cores)), modelCPU / added))
                }
            }
        }
        let busy = HostLoad.shared.rowEnded()
        // The same model runs counted in these runs (one thread a run): the profile, taken minutes apart, can find the
        // host's cores slower or faster (127.7 and 100.8 ms a photo in two quiet runs).
        let inRun = Timing(samples: runs[settings.count - 1].map(\.modelCPU)).median
        let limit = Double(cores) * 1000 / inRun
        print(String(format: "limit in these runs: %.2f images/s = %d cores ÷ %.1f ms of model runs a photo, counted in them", limit, cores, inRun))
        // A busy host lends fewer cores than there are; cores ÷ the CPU time a photo took is the rate with all of them.
        print("ingest, \(cores) at once, 3 runs each   images/s    IQR  CPU ms/photo  model runs  cores used  of the limit"
            + "  with all cores")
        for (setting, samples) in zip(settings, runs) {
            let rate = Timing(samples: samples.map(\.rate))
            let modelCPU = Timing(samples: samples.map(\.modelCPU)).median
            let cpu = Timing(samples: samples.map(\.cpu)).median
            print(
                ("LiteRT " + setting.name).padding(toLength: 34, withPad: " ", startingAt: 0)
                    + String(
                        format: "  %8.2f  %5.2f  %12.1f  %@  %9.0f%%  %@  %.2f images/s, %.2f of the limit", rate.median, rate.iqr, cpu,
                        (setting.threads == nil ? "         -" : String(format: "%10.1f", modelCPU)) as NSString,
                        100 * Timing(samples: samples.map(\.busyCores)).median,
                        (busy ? "        busy" : String(format: "%12.2f", rate.median / limit)) as NSString,
                        Double(cores) * 1000 / cpu, Double(cores) * 1000 / cpu / limit))
        }
    }
}
