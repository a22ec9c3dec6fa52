import CLiteRt
import Foundation
import SwiftVisionCore

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

        /// Loads the model at `url` in `environment` (by default the one of ``ModelStore/shared``).
        public init(contentsOf url: URL, environment: Environment? = nil) throws {
            let environment = try environment ?? ModelStore.shared.environment()
            let library = environment.library
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw LiteRTError.modelNotFound(path: url.path)
            }
            try ModelFileCheck.verify(url)
            var created: LiteRtModel?
            try library.check(
                LiteRT.filteringLog { library.createModelFromFile(environment.handle, url.path, &created) },
                "load model \(url.lastPathComponent)")
            guard let handle = created else {
                throw LiteRTError.incompatibleModel("\(url.lastPathComponent) gave no model")
            }
            // Until `self` owns the handle, every failure must free it.
            do {
                (inputs, outputs, metadata) = try Self.describe(handle, library: library, name: url.lastPathComponent)
            } catch {
                library.destroyModel(handle)
                throw error
            }
            self.environment = environment
            self.handle = handle
            self.url = url
        }

        /// The first signature's inputs and outputs and the metadata of the model `handle`.
        private static func describe(
            _ handle: LiteRtModel, library: LiteRTLibrary, name: String
        ) throws -> (inputs: [TensorInfo], outputs: [TensorInfo], metadata: ModelMetadata?) {
            var signatureCount = 0
            try library.check(library.getNumModelSignatures(handle, &signatureCount), "count the model signatures")
            guard signatureCount > 0 else {
                throw LiteRTError.incompatibleModel("\(name) has no signature")
            }
            var signature: LiteRtSignature?
            try library.check(library.getModelSignature(handle, 0, &signature), "read the model signature")
            var inputCount = 0
            var outputCount = 0
            try library.check(library.getNumSignatureInputs(signature, &inputCount), "count the model inputs")
            try library.check(library.getNumSignatureOutputs(signature, &outputCount), "count the model outputs")
            let inputs = try (0..<inputCount).map { index in
                var tensor: LiteRtTensor?
                try library.check(library.getSignatureInputTensorByIndex(signature, index, &tensor), "read input \(index)")
                return try TensorInfo(tensor: tensor!, library: library)
            }
            let outputs = try (0..<outputCount).map { index in
                var tensor: LiteRtTensor?
                try library.check(library.getSignatureOutputTensorByIndex(signature, index, &tensor), "read output \(index)")
                return try TensorInfo(tensor: tensor!, library: library)
            }
            var buffer: UnsafeRawPointer?
            var size = 0
            guard library.getModelMetadata(handle, ModelMetadata.bufferKey, &buffer, &size) == 0, let buffer, size > 0 else {
                return (inputs, outputs, nil)
            }
            return (inputs, outputs, try ModelMetadata(flatBuffer: Data(bytes: buffer, count: size)))
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
