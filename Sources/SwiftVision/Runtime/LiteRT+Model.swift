import CLiteRt
import Foundation

extension LiteRT {
    /// A `.tflite` model loaded from a file: its signature and its metadata.
    ///
    /// Immutable once loaded and safe to share; compile it into an ``Interpreter`` to run it.
    public final class Model: @unchecked Sendable {
        let environment: Environment
        let handle: LiteRtModel
        /// Where the model was loaded from.
        public let url: URL
        /// The inputs of the model's first signature, in order.
        public let inputs: [TensorInfo]
        /// The outputs of the model's first signature, in order.
        public let outputs: [TensorInfo]
        /// The TFLite metadata, nil when the model carries none.
        public let metadata: ModelMetadata?

        /// Loads the model at `url`.
        public init(contentsOf url: URL, environment: Environment? = nil) throws {
            let environment = try environment ?? Environment.shared()
            let library = environment.library
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw LiteRTError.modelNotFound(path: url.path)
            }
            var handle: LiteRtModel?
            try library.check(
                library.createModelFromFile(environment.handle, url.path, &handle), "load model \(url.lastPathComponent)")
            self.environment = environment
            self.handle = handle!
            self.url = url
            var signatureCount = 0
            try library.check(library.getNumModelSignatures(handle, &signatureCount), "count the model signatures")
            guard signatureCount > 0 else {
                library.destroyModel(handle)
                throw LiteRTError.incompatibleModel("\(url.lastPathComponent) has no signature")
            }
            var signature: LiteRtSignature?
            try library.check(library.getModelSignature(handle, 0, &signature), "read the model signature")
            var inputCount = 0
            var outputCount = 0
            try library.check(library.getNumSignatureInputs(signature, &inputCount), "count the model inputs")
            try library.check(library.getNumSignatureOutputs(signature, &outputCount), "count the model outputs")
            inputs = try (0..<inputCount).map { index in
                var tensor: LiteRtTensor?
                try library.check(library.getSignatureInputTensorByIndex(signature, index, &tensor), "read input \(index)")
                return try TensorInfo(tensor: tensor!, library: library)
            }
            outputs = try (0..<outputCount).map { index in
                var tensor: LiteRtTensor?
                try library.check(library.getSignatureOutputTensorByIndex(signature, index, &tensor), "read output \(index)")
                return try TensorInfo(tensor: tensor!, library: library)
            }
            var buffer: UnsafeRawPointer?
            var size = 0
            if library.getModelMetadata(handle, ModelMetadata.bufferKey, &buffer, &size) == 0, let buffer, size > 0 {
                metadata = try ModelMetadata(flatBuffer: Data(bytes: buffer, count: size))
            } else {
                metadata = nil
            }
        }

        /// Loads the model at `path`.
        public convenience init(contentsOfFile path: String, environment: Environment? = nil) throws {
            try self.init(contentsOf: URL(fileURLWithPath: path), environment: environment)
        }

        deinit {
            environment.library.destroyModel(handle)
        }
    }
}
