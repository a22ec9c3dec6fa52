import CLiteRt
import Foundation
import SwiftVisionCore

/// Runs a LiteRT model; safe to share between threads.
///
/// Inferences run in parallel, up to ``parallelInferences`` at once: the model is compiled once at
/// first, and again (with its own tensor buffers) whenever every compiled instance is busy, until
/// there are ``parallelInferences`` of them; past that an inference waits for one to be free.
public final class Interpreter: Sendable {
    /// The model being run.
    public let model: LiteRT.Model
    /// The most inferences run at once, each on its own compiled instance of the model.
    public let parallelInferences: Int
    private let compiled: InstancePool<LiteRT.CompiledModel>

    /// The number of processors: the most inferences an interpreter runs at once unless told otherwise.
    public static let defaultParallelInferences = ProcessInfo.processInfo.activeProcessorCount

    /// Compiles `model` for the CPU, to run up to `parallelInferences` inferences at once (at least 1).
    public init(
        model: LiteRT.Model, options: LiteRT.CompilationOptions = .default,
        parallelInferences: Int = Interpreter.defaultParallelInferences
    ) throws {
        self.model = model
        compiled = try InstancePool(limit: parallelInferences) { try LiteRT.CompiledModel(model: model, options: options) }
        self.parallelInferences = compiled.limit
    }

    /// Loads and compiles the model at `url`, to run up to `parallelInferences` inferences at once.
    public convenience init(
        contentsOf url: URL, options: LiteRT.CompilationOptions = .default,
        parallelInferences: Int = Interpreter.defaultParallelInferences
    ) throws {
        try self.init(model: try LiteRT.Model(contentsOf: url), options: options, parallelInferences: parallelInferences)
    }

    /// Instances of the model compiled so far: 1, plus one each time an inference found every other busy.
    public var compiledInstances: Int { compiled.usage.instances }

    /// The most inferences that ran at the same moment so far.
    public var mostInferencesAtOnce: Int { compiled.usage.mostInUseAtOnce }

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
        try compiled.withInstance { compiled in
            try Self.withLocked(compiled.inputBuffers, mode: kLiteRtTensorBufferLockModeWrite) { inputs in
                try write(inputs)
            }
            try compiled.run()
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
