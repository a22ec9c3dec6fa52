import Foundation
import Synchronization

/// A model with one image input whose outputs are read as float vectors: the engine of image
/// classifiers and embedders. Thread-safe; inferences on one model are served one at a time.
struct ImageVectorModel: Sendable {
    let interpreter: Interpreter
    /// The input format, stretching the image to the tensor unless a call asks otherwise.
    let format: ImageTensorFormat

    /// Loads the model at `url`; it must take exactly one image tensor.
    init(url: URL, threadCount: Int) throws {
        interpreter = try Interpreter(contentsOf: url, options: LiteRT.CompilationOptions(threadCount: threadCount))
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

    /// The model at `url` for `threadCount` threads, loaded once per process (again if the file changes).
    static func shared(url: URL, threadCount: Int) throws -> ImageVectorModel {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        let key = Key(
            path: url.standardizedFileURL.path, threadCount: threadCount,
            modified: attributes?[.modificationDate] as? Date, size: attributes?[.size] as? Int)
        if let model = loaded.withLock({ $0[key] }) { return model }
        let model = try ImageVectorModel(url: url, threadCount: threadCount)
        loaded.withLock { $0[key] = model }
        return model
    }

    private struct Key: Hashable {
        let path: String
        let threadCount: Int
        let modified: Date?
        let size: Int?
    }

    private static let loaded = Mutex<[Key: ImageVectorModel]>([:])

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
