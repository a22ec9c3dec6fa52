import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// A model with one image input whose outputs are read as float vectors: the engine of image
/// classifiers and embedders. Thread-safe; inferences on one model are served one at a time.
struct ImageVectorModel: Sendable {
    let interpreter: Interpreter
    /// The input format, stretching the image to the tensor unless a call asks otherwise.
    let format: ImageTensorFormat

    /// The model at `url` from `store`; it must take exactly one image tensor.
    init(url: URL, threadCount: Int?, store: ModelStore) throws {
        let options = threadCount.map { LiteRT.CompilationOptions(threadCount: $0) } ?? .default
        interpreter = try store.interpreter(contentsOf: url, options: options)
        guard interpreter.inputs.count == 1 else {
            throw LiteRTError.incompatibleModel(
                "\(url.lastPathComponent) takes \(interpreter.inputs.count) inputs, not one image")
        }
        format = try ImageTensorFormat(tensor: interpreter.inputs[0], metadata: interpreter.model.metadata?.inputs.first)
    }

    /// The length N of an output shaped as one vector: `[N]`, `[1, N]` or `[1, 1, 1, N]`; nil otherwise.
    static func vectorLength(of output: LiteRT.TensorInfo) -> Int? {
        let shape = output.shape
        guard [1, 2, 4].contains(shape.count), shape.dropLast().allSatisfy({ $0 == 1 }),
            [.float32, .float16, .uint8, .int8].contains(output.elementType)
        else { return nil }
        return shape.last
    }

    /// Every output's values for `region` of `image` (the whole image when nil), scaled to the input by `resizeMode`.
    func outputs(
        for image: VisionImage, region: CGRect? = nil, resizeMode: ImageTensorFormat.ResizeMode = .stretch
    ) throws -> [[Float]] {
        var format = format
        format.resizeMode = resizeMode
        let infos = interpreter.outputs
        return try interpreter.invoke { inputs in
            try image.write(into: inputs[0], format: format, region: region)
        } readingOutputs: { outputs in
            try zip(infos, outputs).map { info, buffer in try info.floatValues(in: buffer) }
        }
    }
}
