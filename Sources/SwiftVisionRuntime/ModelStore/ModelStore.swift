import Foundation
import Synchronization

/// The one place a process loads models: each `.tflite` file is loaded once per file identity, and
/// compiled once per (file identity, compilation options) into one ``Interpreter``; every task and every
/// API style shares them. Each interpreter runs up to ``parallelInferences`` inferences at once, compiling
/// another instance of its model when all are busy (``Interpreter/compiledInstances``).
///
/// Other resources read from files (Tesseract's trained data) are kept here too, once per file and
/// variant. A file that changes on disk (another size, time or inode) is loaded again, and what was made
/// from its earlier version is forgotten (those still using it keep it); an interpreter already handed out
/// loads the changed file itself before its next inference, from this store. Safe to share.
public final class ModelStore: Sendable {
    /// What the store has loaded so far.
    public struct Statistics: Sendable, Hashable, Codable {
        /// Distinct model files loaded.
        public var modelsLoaded: Int
        /// Interpreters made (one per file and compilation options, however many instances each compiles
        /// later for parallel inferences) and other resources made from files.
        public var compilations: Int
        /// The size of the files loaded, in bytes, counting each file once.
        public var bytesLoaded: Int
        /// Requests served from what was already loaded.
        public var reuses: Int

        /// No model loaded yet.
        public init(modelsLoaded: Int = 0, compilations: Int = 0, bytesLoaded: Int = 0, reuses: Int = 0) {
            self.modelsLoaded = modelsLoaded
            self.compilations = compilations
            self.bytesLoaded = bytesLoaded
            self.reuses = reuses
        }
    }

    /// The store of this process, used by every task unless told otherwise.
    public static let shared = ModelStore()

    private struct Key: Hashable, @unchecked Sendable {
        let file: FileIdentity
        let kind: String
        let variant: AnyHashable
    }

    private struct State {
        var entries: [Key: any Sendable] = [:]
        var filesCounted: Set<FileIdentity> = []
        var statistics = Statistics()
    }

    private let state = Mutex(State())
    /// Held while a file loads, so that two callers asking for the same model load it once.
    private let loading = Mutex(())
    private let environmentResult = Mutex<Result<LiteRT.Environment, any Error>?>(nil)

    /// The most inferences each interpreter of this store runs at once.
    public let parallelInferences: Int

    /// An empty store whose interpreters run up to `parallelInferences` inferences at once (at least 1);
    /// tasks use ``shared`` unless given another.
    public init(parallelInferences: Int = Interpreter.defaultParallelInferences) {
        self.parallelInferences = max(1, parallelInferences)
    }

    /// What has been loaded so far.
    public var statistics: Statistics {
        state.withLock { $0.statistics }
    }

    /// The LiteRT environment models of this store are loaded in (the runtime is loaded on first use).
    public func environment() throws -> LiteRT.Environment {
        try environmentResult.withLock { result in
            if let result { return try result.get() }
            let created = Result { try LiteRT.Environment() }
            result = created
            return try created.get()
        }
    }

    /// The model at `url`, loaded once per file identity.
    public func model(contentsOf url: URL) throws -> LiteRT.Model {
        try resource(kind: "model", file: url, variant: 0) { url in
            try LiteRT.Model(contentsOf: url, environment: try environment())
        }
    }

    /// The model at `url` compiled with `options`, once per (file identity, options). The interpreter
    /// runs up to ``parallelInferences`` inferences at once.
    public func interpreter(contentsOf url: URL, options: LiteRT.CompilationOptions = .default) throws -> Interpreter {
        let model = try model(contentsOf: url)
        return try resource(kind: "interpreter", file: url, variant: options) { _ in
            try Interpreter(model: model, options: options, parallelInferences: parallelInferences) { [weak self] url in
                guard let self else { return try LiteRT.Model(contentsOf: url, environment: model.environment) }
                return try self.model(contentsOf: url)
            }
        }
    }

    /// The resource of `kind` made from the file at `url` by `load`, once per (file identity, `variant`).
    package func resource<Resource: Sendable>(
        kind: String, file url: URL, variant: some Hashable & Sendable, load: (URL) throws -> Resource
    ) throws -> Resource {
        let file = try FileIdentity(url)
        let key = Key(file: file, kind: kind, variant: AnyHashable(variant))
        if let found = reuse(key, as: Resource.self) { return found }
        return try loading.withLock { _ in
            if let found = reuse(key, as: Resource.self) { return found }
            let resource = try load(url)
            state.withLock { state in
                state.entries = state.entries.filter { $0.key.file.path != file.path || $0.key.file == file }
                state.entries[key] = resource
                if kind != "model" { state.statistics.compilations += 1 }
                if state.filesCounted.insert(file).inserted {
                    state.statistics.modelsLoaded += 1
                    state.statistics.bytesLoaded += file.size
                }
            }
            return resource
        }
    }

    private func reuse<Resource>(_ key: Key, as type: Resource.Type) -> Resource? {
        state.withLock { state in
            guard let found = state.entries[key] as? Resource else { return nil }
            state.statistics.reuses += 1
            return found
        }
    }
}

/// What identifies the contents of a file without reading it: its path, device, inode, size and
/// modification time.
package struct FileIdentity: Hashable, Sendable {
    package let path: String
    package let device: UInt64
    package let inode: UInt64
    package let size: Int
    package let modified: Int

    /// The identity of the file at `url` now.
    init(_ url: URL) throws {
        let path = url.standardizedFileURL.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw LiteRTError.modelNotFound(path: path)
        }
        self.init(path: path, info)
    }

    /// The identity of the file open as `descriptor`, read from `url`; throws unless it is a regular file.
    package init(descriptor: Int32, url: URL) throws {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw LiteRTError.incompatibleModel("\(url.lastPathComponent) cannot be read: \(String(cString: strerror(errno)))")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw LiteRTError.incompatibleModel("\(url.lastPathComponent) cannot be read: it is not a regular file")
        }
        self.init(path: url.standardizedFileURL.path, info)
    }

    private init(path: String, _ info: stat) {
        self.path = path
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int(info.st_size)
        modified = Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec)
    }
}
