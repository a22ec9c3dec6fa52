import CLiteRt
import Foundation
import SwiftVisionCore

extension LiteRT {
    /// A `.tflite` model loaded from a file: its signature and its metadata.
    ///
    /// The model reads a private copy of the file, which LiteRT and every compiled instance read in its
    /// place: a file replaced, rewritten or cut short on disk while the model is in use changes nothing for it
    /// (LiteRT's own mapping of the file crashed the process with `SIGBUS` when the file was cut short). The
    /// copy is an unnamed file beside the model, or else in the temporary folder (`$TMPDIR`), mapped, so that
    /// only the pages LiteRT reads take memory, as with the file itself; where neither folder takes one, the
    /// copy is held in memory.
    /// ``fileIdentity`` says which version of the file was read.
    ///
    /// Immutable once loaded and safe to share; compile it into an ``Interpreter`` to run it.
    public final class Model: @unchecked Sendable {
        let environment: Environment
        let handle: LiteRtModel
        /// The copy of the file's bytes; LiteRT reads the model in place, so it lives as long as the model.
        private let contents: Contents
        /// The file as it was when it was read: path, device, inode, size and modification time.
        let fileIdentity: FileIdentity
        /// XNNPACK's packed weights of this model, held in memory for its compilations.
        let packedWeights = PackedWeights()
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
            let name = url.lastPathComponent
            let (contents, identity) = try Contents.copy(of: url)
            do {
                try ModelFileCheck.verify(contents.bytes, name: name)
            } catch {
                // A MediaPipe .task (a ZIP of models) named where a model goes: say what it is and what it holds.
                guard PackedFiles.isBundle(atPath: url.path) else { throw error }
                let names = (try? PackedFiles(url: url).names().joined(separator: ", ")) ?? ""
                throw LiteRTError.incompatibleModel(
                    "\(name) is a bundle of models (a MediaPipe .task holding \(names)), not a TFLite model: pass a .tflite")
            }
            var created: LiteRtModel?
            try library.check(
                LiteRT.filteringLog {
                    library.createModelFromBuffer(environment.handle, contents.bytes.baseAddress, contents.bytes.count, &created)
                },
                "load model \(name)")
            guard let handle = created else {
                throw LiteRTError.incompatibleModel("\(name) gave no model")
            }
            // Until `self` owns the handle, every failure must free it.
            do {
                (inputs, outputs, metadata) = try Self.describe(handle, library: library, name: name)
            } catch {
                library.destroyModel(handle)
                throw error
            }
            self.environment = environment
            self.handle = handle
            self.contents = contents
            fileIdentity = identity
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

extension LiteRT.Model {
    /// A private copy of a model file's bytes, page-aligned: a mapping of an unnamed file, or memory.
    final class Contents: @unchecked Sendable {
        /// The bytes.
        let bytes: UnsafeRawBufferPointer
        private let isMapped: Bool

        private init(bytes: UnsafeRawBufferPointer, isMapped: Bool) {
            self.bytes = bytes
            self.isMapped = isMapped
        }

        /// Copies the file at `url`; throws when it is missing, unreadable, empty, or changes while it is copied.
        static func copy(of url: URL) throws -> (Contents, FileIdentity) {
            let name = url.lastPathComponent
            let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { throw LiteRTError.modelNotFound(path: url.path) }
                throw LiteRTError.incompatibleModel("\(name) cannot be read: \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            let identity = try FileIdentity(descriptor: descriptor, url: url)
            guard identity.size > 0 else { throw LiteRTError.incompatibleModel("\(name) is empty") }
            let folders = [url.deletingLastPathComponent(), FileManager.default.temporaryDirectory]
            guard let contents = folders.lazy.compactMap({ mapped(descriptor, size: identity.size, folder: $0) }).first
                ?? inMemory(descriptor, size: identity.size),
                (try? FileIdentity(descriptor: descriptor, url: url)) == identity
            else {
                throw LiteRTError.incompatibleModel("\(name) changed while it was read; load it once it is written")
            }
            return (contents, identity)
        }

        /// The file copied into an unnamed file in `folder`, mapped; nil when that cannot be done.
        private static func mapped(_ descriptor: Int32, size: Int, folder: URL) -> Contents? {
            let copy = swiftvision_private_file(folder.path)
            guard copy >= 0 else { return nil }
            defer { close(copy) }
            guard PackedWeightCache.copy(descriptor, to: copy) == size else { return nil }
            let address = mmap(nil, size, PROT_READ, MAP_SHARED, copy, 0)
            guard let address, address != MAP_FAILED else { return nil }
            return Contents(bytes: UnsafeRawBufferPointer(start: address, count: size), isMapped: true)
        }

        /// The file read into memory; nil when it does not give `size` bytes.
        private static func inMemory(_ descriptor: Int32, size: Int) -> Contents? {
            let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: Int(getpagesize()))
            var length = 0
            while length < size {
                let count = pread(descriptor, memory.baseAddress! + length, size - length, off_t(length))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                length += count
            }
            guard length == size else {
                memory.deallocate()
                return nil
            }
            return Contents(bytes: UnsafeRawBufferPointer(memory), isMapped: false)
        }

        deinit {
            if isMapped {
                munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
            } else {
                bytes.deallocate()
            }
        }
    }
}
