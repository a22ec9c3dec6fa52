import Foundation
import SwiftVision
import SwiftVisionCollections

/// Where ingest's time goes: each sample photo taken through the indexer's steps one after the other, on
/// one thread (one LiteRT thread per inference), each step timed by the wall clock and by the thread's CPU
/// time (which other processes on a busy host do not inflate). A task's step is split into its model runs
/// (counted and timed by the interpreters themselves, ``Interpreter/invokeTally``) and the work around them
/// (image → tensor, decoding the outputs, suppression, crops).
struct IngestProfile {
    /// One step's figures, photo by photo, in milliseconds.
    struct Stage {
        var name: String
        var wall: [Double] = []
        var cpu: [Double] = []
        /// Model runs per photo, for the model-run rows.
        var invokes: [Int]?
    }

    private(set) var stages: [Stage]
    /// The photos profiled.
    private(set) var photos = 0

    /// The names of the stages whose CPU time is model runs.
    private static let modelRuns = " model runs"

    /// The CPU time per photo, on average, of every model run ingest makes.
    var modelCPUPerPhoto: Double {
        stages.filter { $0.name.hasSuffix(Self.modelRuns) }.map { $0.cpu.reduce(0, +) }.reduce(0, +) / Double(max(1, photos))
    }

    /// The CPU time per photo, on average, of every step.
    var cpuPerPhoto: Double {
        stages.map { $0.cpu.reduce(0, +) }.reduce(0, +) / Double(max(1, photos))
    }

    /// Profiles indexing `sources` into a fresh store with the default tasks.
    init(sources: [String], cache: SwiftVisionCache, folder: URL) throws {
        let tasks = IndexedTask.defaults
        let analyzers = try tasks.map { try ItemAnalyzer(tasks: [$0], threads: 1) }
        let interpreters = try Self.interpreters(threads: 1, cache: cache)
        func tally() -> ModelRuns { ModelRuns(interpreters) }
        let store = try SQLiteCollectionStore(url: folder.appendingPathComponent("profile.sqlite"))
        stages = [Stage(name: "read + hash"), Stage(name: "decode")]
            + tasks.flatMap { [Stage(name: "\($0.rawValue)" + Self.modelRuns, invokes: []), Stage(name: "\($0.rawValue) around them")] }
            + [Stage(name: "thumbnail (ItemRecord)"), Stage(name: "store write")]
        // Loads and compiles every model, outside the timing.
        let warmUp = try VisionImage(contentsOf: URL(fileURLWithPath: sources[0]))
        for analyzer in analyzers { _ = try analyzer.analysis(of: warmUp) }

        for source in sources {
            var stage = 0
            func timed<Result>(_ body: () throws -> Result) rethrows -> Result {
                let started = (wall: ContinuousClock.now, cpu: Self.threadCPUMilliseconds())
                defer {
                    stages[stage].wall.append((ContinuousClock.now - started.wall).inMilliseconds)
                    stages[stage].cpu.append(Self.threadCPUMilliseconds() - started.cpu)
                    stage += 1
                }
                return try body()
            }
            let (data, hash) = try timed {
                let data = try Data(contentsOf: URL(fileURLWithPath: source), options: .mappedIfSafe)
                return (data, CollectionIndexer.contentHash(of: data))
            }
            let image = try timed { try VisionImage(data: data) }
            var analysis = ItemAnalysis()
            for analyzer in analyzers {
                let before = tally()
                let found = try timed { try analyzer.analysis(of: image) }
                let after = tally()
                // The task's step, timed as a whole, becomes its model runs and the rest.
                let runs = stage - 1
                stages[runs].invokes?.append(after.count - before.count)
                let (wall, cpu) = (stages[runs].wall.removeLast(), stages[runs].cpu.removeLast())
                stages[runs].wall.append(after.wall - before.wall)
                stages[runs].cpu.append(after.cpu - before.cpu)
                stages[stage].wall.append(wall - (after.wall - before.wall))
                stages[stage].cpu.append(cpu - (after.cpu - before.cpu))
                stage += 1
                analysis.merge(found)
            }
            let record = timed { ItemRecord(contentHash: hash, source: source, timestampMs: nil, image: image, analysis: analysis) }
            _ = try timed { try store.add(record, to: "profile") }
            photos += 1
        }
    }

    /// The profile as a table: each step's median per photo (wall and CPU), its mean CPU and its share of
    /// the CPU time of all steps.
    func print() {
        let total = stages.map { $0.cpu.reduce(0, +) }.reduce(0, +)
        Swift.print("stage".padding(toLength: 34, withPad: " ", startingAt: 0) + "  wall ms  CPU ms  mean CPU   share  runs/photo")
        for stage in stages {
            let runs = stage.invokes.map { counts in
                String(format: "%.1f (%d–%d)", Double(counts.reduce(0, +)) / Double(max(1, counts.count)), counts.min() ?? 0, counts.max() ?? 0)
            } ?? ""
            let sum = stage.cpu.reduce(0, +)
            Swift.print(
                stage.name.padding(toLength: 34, withPad: " ", startingAt: 0)
                    + String(
                        format: "  %7.2f %7.2f  %8.2f  %5.1f%%  %@", Timing(samples: stage.wall).median, Timing(samples: stage.cpu).median,
                        sum / Double(max(1, photos)), 100 * sum / total, runs as NSString))
        }
        Swift.print(
            "all".padding(toLength: 34, withPad: " ", startingAt: 0)
                + String(format: "                   %8.2f  100.0%%  (model runs: %.2f ms, %.1f%%)", cpuPerPhoto, modelCPUPerPhoto,
                    100 * modelCPUPerPhoto / cpuPerPhoto))
    }

    /// The model runs the interpreters of `interpreters` made so far.
    struct ModelRuns {
        var count: Int
        /// Wall time, in milliseconds.
        var wall: Double
        /// The calling threads' CPU time, in milliseconds.
        var cpu: Double

        init(_ interpreters: [Interpreter]) {
            let tallies = interpreters.map(\.invokeTally)
            count = tallies.map(\.count).reduce(0, +)
            wall = Double(tallies.map(\.wallNanoseconds).reduce(0, +)) / 1e6
            cpu = Double(tallies.map(\.threadCPUNanoseconds).reduce(0, +)) / 1e6
        }
    }

    /// The shared interpreters of every model the default indexed tasks may run, compiled for `threads` threads,
    /// each tallying its model runs from now on.
    static func interpreters(threads: Int, cache: SwiftVisionCache) throws -> [Interpreter] {
        let names = Set(
            [LabelsTask.baseModelName, EmbeddingsTask.baseModelName, ObjectDetectionModel.defaultModelName] + FacesTask.descriptor.models)
        return try names.sorted().map {
            let interpreter = try ModelStore.shared.interpreter(contentsOf: cache.model(named: $0), options: .init(threadCount: threads))
            interpreter.startTallyingInvokes()
            return interpreter
        }
    }

    /// The calling thread's CPU time, in milliseconds.
    static func threadCPUMilliseconds() -> Double {
        cpuMilliseconds(CLOCK_THREAD_CPUTIME_ID)
    }

    /// The CPU time of `clock` (a thread's or the process's), in milliseconds.
    static func cpuMilliseconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
    }
}

extension ItemAnalysis {
    /// Takes the outputs `other` has.
    fileprivate mutating func merge(_ other: ItemAnalysis) {
        labels = other.labels ?? labels
        objects = other.objects ?? objects
        faces = other.faces ?? faces
        embeddings = other.embeddings ?? embeddings
    }
}
