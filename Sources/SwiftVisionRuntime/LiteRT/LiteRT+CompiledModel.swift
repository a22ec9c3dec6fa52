import CLiteRt
import Foundation
import SwiftVisionCore

extension LiteRT {
    /// A model compiled for the CPU with its input and output buffers.
    ///
    /// Not safe for concurrent use (one inference at a time writes its buffers);
    /// ``Interpreter`` wraps it for sharing between threads.
    public final class CompiledModel {
        /// The model compiled.
        public let model: Model
        let handle: LiteRtCompiledModel
        /// One buffer per model input, in signature order.
        public let inputBuffers: [TensorBuffer]
        /// One buffer per model output, in signature order.
        public let outputBuffers: [TensorBuffer]

        /// Compiles `model` with `options`.
        public init(model: Model, options: CompilationOptions = .default) throws {
            let library = model.environment.library
            var handle: LiteRtCompiledModel?
            try model.packedWeights.compile(model: model, runtime: library.path, cache: options.packedWeightCache) { descriptor in
                let optionsHandle: LiteRtOptions
                do {
                    optionsHandle = try options.makeHandle(library, weightCacheDescriptor: descriptor)
                } catch {
                    if let descriptor { close(descriptor) }
                    throw error
                }
                defer { library.destroyOptions(optionsHandle) }
                try library.check(
                    LiteRT.filteringLog { library.createCompiledModel(model.environment.handle, model.handle, optionsHandle, &handle) },
                    "compile model \(model.url.lastPathComponent)")
            }
            self.model = model
            self.handle = handle!
            do {
                inputBuffers = try model.inputs.map { try TensorBuffer(info: $0, environment: model.environment) }
                outputBuffers = try model.outputs.map { try TensorBuffer(info: $0, environment: model.environment) }
            } catch {
                library.destroyCompiledModel(handle)
                throw error
            }
        }

        /// Runs the model on the current contents of ``inputBuffers``, filling ``outputBuffers``.
        public func run() throws {
            let library = model.environment.library
            var inputs: [LiteRtTensorBuffer?] = inputBuffers.map(\.handle)
            var outputs: [LiteRtTensorBuffer?] = outputBuffers.map(\.handle)
            try library.check(
                library.runCompiledModel(handle, 0, inputs.count, &inputs, outputs.count, &outputs),
                "run model \(model.url.lastPathComponent)")
        }

        deinit {
            model.environment.library.destroyCompiledModel(handle)
        }
    }
}
