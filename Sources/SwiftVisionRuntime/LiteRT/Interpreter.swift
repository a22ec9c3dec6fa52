import CLiteRt
import Foundation
import SwiftVisionCore

/// Runs a LiteRT model; safe to share between threads.
///
/// Inferences are serialised: one compiled model and one set of tensor buffers serve all callers
/// in turn. Create one interpreter per thread for parallel inference.
public final class Interpreter: @unchecked Sendable {
    /// The model being run.
    public let model: LiteRT.Model
    /// Used only while `lock` is held, which makes the class safe to share.
    private let compiled: LiteRT.CompiledModel
    private let lock = NSLock()

    /// Compiles `model` for the CPU.
    public init(model: LiteRT.Model, options: LiteRT.CompilationOptions = .default) throws {
        self.model = model
        compiled = try LiteRT.CompiledModel(model: model, options: options)
    }

    /// Loads and compiles the model at `url`.
    public convenience init(contentsOf url: URL, options: LiteRT.CompilationOptions = .default) throws {
        try self.init(model: try LiteRT.Model(contentsOf: url), options: options)
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
        try lock.withLock {
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
