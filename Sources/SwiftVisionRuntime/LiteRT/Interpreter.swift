import CLiteRt
import Foundation
import SwiftVisionCore
import Synchronization

/// Runs a LiteRT model; safe to share between threads.
///
/// Inferences run in parallel, up to ``parallelInferences`` at once: the model is compiled once at
/// first, and again (with its own tensor buffers) whenever every compiled instance is busy, until
/// there are ``parallelInferences`` of them; past that an inference waits for one to be free.
///
/// A model file that changes on disk (another inode, size or modification time: a new file renamed over
/// it) is loaded again before the next inference, so a long-running process picks up a rolled model
/// without a restart; inferences already running finish on the model they started with. A changed file
/// that cannot be used in its place (half-written, not a model, other inputs or outputs) is reported once
/// on standard error and the model loaded before goes on running until the file changes again.
public final class Interpreter: Sendable {
    /// The model being run: the last one loaded from its file.
    public var model: LiteRT.Model { current.withLock { $0.model } }
    /// The most inferences run at once, each on its own compiled instance of the model.
    public let parallelInferences: Int
    private let options: LiteRT.CompilationOptions
    /// Loads the model file again when it changed.
    private let load: @Sendable (URL) throws -> LiteRT.Model
    private let current: Mutex<Loaded>
    /// Held while the model is loaded again, so that it is loaded once.
    private let reloading = Mutex(())
    private let tally = Mutex(InvokeTally())
    /// Whether the model runs are counted and timed: off until ``startTallyingInvokes()``, so that an
    /// inference pays one relaxed load, not four clock readings and a lock, for a tally that only a
    /// profile reads.
    private let tallying = Atomic(false)

    /// How many inferences an interpreter ran and the time their model runs took (LiteRT's run only, not
    /// the writing of inputs or the reading of outputs around it), from ``startTallyingInvokes()`` on:
    /// what a profile of the work around the models subtracts.
    package struct InvokeTally: Sendable, Hashable {
        /// Inferences run.
        package var count = 0
        /// Wall time of the runs, in nanoseconds.
        package var wallNanoseconds = 0
        /// CPU time of the threads that called the runs, in nanoseconds (all of a run's CPU time on one thread).
        package var threadCPUNanoseconds = 0
    }

    /// The inferences run since ``startTallyingInvokes()`` (none before it).
    package var invokeTally: InvokeTally { tally.withLock { $0 } }

    /// Counts and times every later model run in ``invokeTally``, for this interpreter (shared by every
    /// task that runs its model) until the process ends.
    package func startTallyingInvokes() {
        tallying.store(true, ordering: .relaxed)
    }

    /// A model and its compiled instances.
    private struct Loaded {
        var model: LiteRT.Model
        var compiled: InstancePool<LiteRT.CompiledModel>
        /// A version of the file that could not replace the model, not tried again.
        var refused: FileIdentity?
    }

    /// The number of processors: the most inferences an interpreter runs at once unless told otherwise.
    public static let defaultParallelInferences = ProcessInfo.processInfo.activeProcessorCount

    /// Compiles `model` for the CPU, to run up to `parallelInferences` inferences at once (at least 1).
    public convenience init(
        model: LiteRT.Model, options: LiteRT.CompilationOptions = .default,
        parallelInferences: Int = Interpreter.defaultParallelInferences
    ) throws {
        try self.init(model: model, options: options, parallelInferences: parallelInferences) { [environment = model.environment] in
            try LiteRT.Model(contentsOf: $0, environment: environment)
        }
    }

    /// Compiles `model` as above; `load` loads its file again when it changes on disk.
    package init(
        model: LiteRT.Model, options: LiteRT.CompilationOptions, parallelInferences: Int,
        reloadingWith load: @escaping @Sendable (URL) throws -> LiteRT.Model
    ) throws {
        self.options = options
        self.load = load
        let compiled = try Self.compile(model, options: options, parallelInferences: parallelInferences)
        self.parallelInferences = compiled.limit
        current = Mutex(Loaded(model: model, compiled: compiled))
    }

    /// Loads and compiles the model at `url`, to run up to `parallelInferences` inferences at once.
    public convenience init(
        contentsOf url: URL, options: LiteRT.CompilationOptions = .default,
        parallelInferences: Int = Interpreter.defaultParallelInferences
    ) throws {
        try self.init(model: try LiteRT.Model(contentsOf: url), options: options, parallelInferences: parallelInferences)
    }

    private static func compile(
        _ model: LiteRT.Model, options: LiteRT.CompilationOptions, parallelInferences: Int
    ) throws -> InstancePool<LiteRT.CompiledModel> {
        try InstancePool(limit: parallelInferences) { try LiteRT.CompiledModel(model: model, options: options) }
    }

    /// Instances of the model compiled so far: 1, plus one each time an inference found every other busy.
    public var compiledInstances: Int { current.withLock { $0.compiled }.usage.instances }

    /// The most inferences that ran at the same moment so far.
    public var mostInferencesAtOnce: Int { current.withLock { $0.compiled }.usage.mostInUseAtOnce }

    /// The compiled instances of the model file as it is now: those of the model loaded before while the
    /// file is unchanged (or gone, or refused), else those of the file loaded again.
    private func upToDate() -> InstancePool<LiteRT.CompiledModel> {
        let loaded = current.withLock { $0 }
        guard let identity = try? FileIdentity(loaded.model.url), identity != loaded.model.fileIdentity, identity != loaded.refused
        else { return loaded.compiled }
        return reloading.withLock { _ in
            let loaded = current.withLock { $0 }
            guard identity != loaded.model.fileIdentity, identity != loaded.refused else { return loaded.compiled }
            do {
                let model = try load(loaded.model.url)
                guard model.inputs == loaded.model.inputs, model.outputs == loaded.model.outputs else {
                    throw LiteRTError.incompatibleModel("it has other inputs or outputs; restart to use it")
                }
                let compiled = try Self.compile(model, options: options, parallelInferences: parallelInferences)
                current.withLock { $0 = Loaded(model: model, compiled: compiled) }
                return compiled
            } catch {
                current.withLock { $0.refused = identity }
                FileHandle.standardError.write(Data((
                    "swiftvision: \(loaded.model.url.path) changed on disk but cannot replace the model loaded before, "
                    + "which goes on running: \(error.localizedDescription)\n").utf8))
                return loaded.compiled
            }
        }
    }

    /// The model's inputs, in order.
    public var inputs: [LiteRT.TensorInfo] { model.inputs }
    /// The model's outputs, in order.
    public var outputs: [LiteRT.TensorInfo] { model.outputs }

    /// Runs one inference: `write` fills the input tensors in place, `read` reads the outputs.
    /// The buffers are valid only inside the closures.
    public func invoke<Result>(
        writingInputs write: ([UnsafeMutableRawBufferPointer]) throws -> Void,
        readingOutputs read: ([UnsafeRawBufferPointer]) throws -> Result
    ) throws -> Result {
        try invoke(inputShapes: nil, writingInputs: write, readingOutputs: read)
    }

    /// Runs one inference as ``invoke(writingInputs:readingOutputs:)`` with the inputs first given the sizes
    /// `inputShapes`, and the outputs the sizes that follow (``LiteRT/CompiledModel/resizeInputs(to:)``: for a
    /// model that leaves them open).
    public func invoke<Result>(
        inputShapes: [[Int]]?,
        writingInputs write: ([UnsafeMutableRawBufferPointer]) throws -> Void,
        readingOutputs read: ([UnsafeRawBufferPointer]) throws -> Result
    ) throws -> Result {
        try upToDate().withInstance { compiled in
            if let inputShapes { try compiled.resizeInputs(to: inputShapes) }
            try Self.withLocked(compiled.inputBuffers, mode: kLiteRtTensorBufferLockModeWrite) { inputs in
                try write(inputs)
            }
            if tallying.load(ordering: .relaxed) { try tallied { try compiled.run() } } else { try compiled.run() }
            return try Self.withLocked(compiled.outputBuffers, mode: kLiteRtTensorBufferLockModeRead) { outputs in
                try read(outputs.map { UnsafeRawBufferPointer($0) })
            }
        }
    }

    /// Runs one inference on packed input bytes, returning each output's bytes.
    public func invoke(inputs: [Data]) throws -> [Data] {
        guard inputs.count == model.inputs.count else {
            throw LiteRTError.incompatibleModel("the model takes \(model.inputs.count) inputs, got \(inputs.count)")
        }
        for (data, info) in zip(inputs, model.inputs) where data.count != info.byteCount {
            throw LiteRTError.incompatibleModel(
                "input \(info.name) of shape \(info.shape) needs \(info.byteCount) bytes, got \(data.count)")
        }
        return try invoke { buffers in
            for (buffer, data) in zip(buffers, inputs) { data.copyBytes(to: buffer) }
        } readingOutputs: { buffers in
            buffers.map { Data($0) }
        }
    }

    /// Runs `run`, the model's run, adding it to ``invokeTally``.
    private func tallied(_ run: () throws -> Void) rethrows {
        let started = (wall: Self.nanoseconds(CLOCK_MONOTONIC), cpu: Self.nanoseconds(CLOCK_THREAD_CPUTIME_ID))
        try run()
        let (wall, cpu) = (Self.nanoseconds(CLOCK_MONOTONIC) - started.wall, Self.nanoseconds(CLOCK_THREAD_CPUTIME_ID) - started.cpu)
        tally.withLock {
            $0.count += 1
            $0.wallNanoseconds += wall
            $0.threadCPUNanoseconds += cpu
        }
    }

    private static func nanoseconds(_ clock: clockid_t) -> Int {
        var time = timespec()
        clock_gettime(clock, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }

    private static func withLocked<Result>(
        _ buffers: [LiteRT.TensorBuffer], mode: Int, _ body: ([UnsafeMutableRawBufferPointer]) throws -> Result
    ) throws -> Result {
        var locked: [LiteRT.TensorBuffer] = []
        defer { locked.forEach { $0.unlock() } }
        var regions: [UnsafeMutableRawBufferPointer] = []
        for buffer in buffers {
            let address = try buffer.lock(mode: mode)
            locked.append(buffer)
            regions.append(UnsafeMutableRawBufferPointer(start: address, count: buffer.info.byteCount))
        }
        return try body(regions)
    }
}
