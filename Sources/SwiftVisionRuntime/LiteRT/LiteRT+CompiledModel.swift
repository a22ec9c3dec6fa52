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
        public private(set) var inputBuffers: [TensorBuffer]
        /// One buffer per model output, in signature order.
        public private(set) var outputBuffers: [TensorBuffer]
        /// Whether LiteRT's tensors have the sizes of the buffers: not after a resizing that failed part way.
        private var buffersMatchTensors = true

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

        /// Gives the inputs the sizes `shapes` (one per input, outermost first) and new buffers of those sizes, and
        /// the outputs buffers of the sizes that follow from them; nothing changes when the inputs already have them.
        /// Only sizes the model leaves open can change (those stored as -1 in the model; LiteRT's
        /// `LiteRtCompiledModelResizeInputTensor`), else ``LiteRTError/status(code:meaning:operation:)``.
        public func resizeInputs(to shapes: [[Int]]) throws {
            guard !buffersMatchTensors || shapes != inputBuffers.map(\.info.shape) else { return }
            let library = model.environment.library
            let name = model.url.lastPathComponent
            let sizes = 1...Int(Int32.max)
            guard shapes.count == inputBuffers.count,
                zip(shapes, inputBuffers).allSatisfy({ $0.count == $1.info.shape.count && $0.allSatisfy(sizes.contains) })
            else {
                throw LiteRTError.incompatibleModel("\(name) cannot take inputs of shapes \(shapes)")
            }
            buffersMatchTensors = false
            for (index, shape) in shapes.enumerated() {
                let dimensions = shape.map { Int32($0) }
                try library.check(
                    library.resizeInputTensor(handle, 0, index, dimensions, dimensions.count),
                    "resize input \(index) of \(name) to \(shape)")
            }
            var layouts = [LiteRtLayout](repeating: LiteRtLayout(), count: outputBuffers.count)
            try library.check(
                library.getOutputTensorLayouts(handle, 0, layouts.count, &layouts, true), "read the output sizes of \(name)")
            let environment = model.environment
            inputBuffers = try zip(inputBuffers, shapes).map { try TensorBuffer(info: $0.info.reshaped($1), environment: environment) }
            outputBuffers = try zip(outputBuffers, layouts).map { buffer, layout in
                let rank = Int(layout.rank)
                let shape = withUnsafeBytes(of: layout.dimensions) { $0.bindMemory(to: Int32.self).prefix(rank).map(Int.init) }
                guard shape.allSatisfy({ $0 > 0 }) else {
                    throw LiteRTError.incompatibleModel("output \(buffer.info.name) of \(name) has no size for inputs \(shapes)")
                }
                return try TensorBuffer(info: buffer.info.reshaped(shape), environment: environment)
            }
            buffersMatchTensors = true
        }

        deinit {
            model.environment.library.destroyCompiledModel(handle)
        }
    }
}
