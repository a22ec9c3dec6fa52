import CLiteRt
import Crypto
import Foundation
import SwiftVisionCore
import Synchronization

/// Files of XNNPACK's packed weights, one per model file: compiling a model repacks its weights into
/// XNNPACK's layouts (18 MB for EfficientNet-Lite0's 4.6 MB, 35 MB for YOLOv3-tiny), which costs more than
/// a one-image run's inference. With a file, the first compilation writes the packed weights and every
/// later one (the next command, a restarted server) copies them instead of packing again.
///
/// XNNPACK never maps these files: it maps the memory file of ``PackedWeights`` that the model holds, into
/// which a file is copied or from which it is written. A file truncated, rewritten or replaced on disk
/// therefore never reaches a running process (a mapped file cut short would kill it with `SIGBUS`).
///
/// A file is named after the model's name and a digest of what identifies the model and the runtime
/// that packed it (path, size, modification time, inode; the same of `libLiteRt.so`): a changed model or
/// runtime gets a new file. It is written under a temporary name and renamed into place, so a reader never
/// finds a half-written file. Beside it, a `.source` file records that identity and the file's size; a file
/// whose size differs (cut short on a full disk or by a copy) is packed anew. Each time a file is written,
/// and once per process, the files of models that are gone or changed since (a deleted copy, an updated
/// download, another runtime) are removed, as are temporary files whose writer has ended, so the folder does
/// not grow for ever.
package struct PackedWeightCache: Sendable, Hashable {
    /// The folder of the files.
    package let folder: URL

    /// The folder `packed-weights` of the current SwiftVision cache.
    package static let current = PackedWeightCache(folder: SwiftVisionCache.current.packedWeights)

    /// A cache in `folder`.
    package init(folder: URL) {
        self.folder = folder
    }

    static let fileExtension = "xnnpack"
    static let sourceExtension = "source"
    /// How old a temporary file must be to be removed even though the process that wrote it may live.
    static let temporaryFileLifetime: TimeInterval = 3600

    /// The folders this process has swept since it started.
    private static let swept = Mutex<Set<URL>>([])

    /// The file for the packed weights of `model` (the file as it was read, `identity`), as packed by the
    /// runtime at `runtime`; nil when the runtime cannot be identified, or the folder cannot be written.
    func reservation(forModel model: URL, identity: FileIdentity, runtime: String) -> Reservation? {
        guard let runtimeIdentity = Self.identity(of: runtime) else { return nil }
        let source = Self.source(model: model.path, identity: Self.line(identity), runtime: runtime, runtimeIdentity: runtimeIdentity)
        let key = SHA256.hash(data: Data(source.utf8)).prefix(12).hexString
        let stem = model.deletingPathExtension().lastPathComponent.filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        let file = folder.appendingPathComponent("\(stem)-\(key).\(Self.fileExtension)").path
        if Self.swept.withLock({ $0.insert(folder).inserted }) { removeStaleFiles() }
        if FileManager.default.fileExists(atPath: file) { return Reservation(cache: self, path: file, source: source) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return nil
        }
        guard access(folder.path, W_OK) == 0 else { return nil }
        return Reservation(cache: self, path: file, source: source)
    }

    /// The cache's file for one model: read when it is there and matches its record, else written.
    struct Reservation {
        let cache: PackedWeightCache
        /// Where the file is, or goes.
        let path: String
        /// What the file is packed from, for its `.source` file.
        let source: String

        /// Copies the file into the empty `memory`, left at its start; false, `memory` left empty and the file
        /// removed, when there is no file matching its record, or it changed while it was copied.
        func read(into memory: Int32) -> Bool {
            defer { lseek(memory, 0, SEEK_SET) }
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            defer { close(descriptor) }
            var status = stat()
            let recorded = try? Data(contentsOf: URL(fileURLWithPath: "\(path).\(PackedWeightCache.sourceExtension)"))
            guard fstat(descriptor, &status) == 0, recorded.map({ String(decoding: $0, as: UTF8.self) }) == "\(source)\(status.st_size)\n",
                PackedWeightCache.copy(descriptor, to: memory) == Int(status.st_size)
            else {
                ftruncate(memory, 0)
                unlink(path)
                unlink("\(path).\(PackedWeightCache.sourceExtension)")
                return false
            }
            return true
        }

        /// Writes the packed weights in `memory` to the file: under a temporary name, renamed into place after
        /// its `.source` record. Nothing is written when the folder cannot take it.
        func keep(from memory: Int32) {
            let temporary = PackedWeightCache.temporaryName(for: path)
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { return }
            let size = PackedWeightCache.copy(memory, to: descriptor)
            close(descriptor)
            let record = "\(path).\(PackedWeightCache.sourceExtension)"
            guard let size, size > 0, PackedWeightCache.write("\(source)\(size)\n", to: record), rename(temporary, path) == 0 else {
                unlink(temporary)
                return
            }
            cache.removeStaleFiles()
        }
    }

    /// A name beside `path` for a file being written, which names this process: `PATH.PID-RANDOM.tmp`.
    private static func temporaryName(for path: String) -> String {
        "\(path).\(getpid())-\(UInt64.random(in: 0...UInt64.max)).tmp"
    }

    /// Writes `text` to `path` through a temporary file renamed into place; false when it could not.
    private static func write(_ text: String, to path: String) -> Bool {
        let temporary = temporaryName(for: path)
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)), rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// Copies everything in `input` from its start to `output`'s position; the bytes copied, nil on an error.
    static func copy(_ input: Int32, to output: Int32) -> Int? {
        var offset = off_t(0)
        while true {
            let count = sendfile(output, input, &offset, 1 << 30)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return Int(offset) }
        }
    }

    /// The model's and the runtime's paths and identities, one per line.
    private static func source(model: String, identity: String, runtime: String, runtimeIdentity: String) -> String {
        "\(model)\n\(identity)\n\(runtime)\n\(runtimeIdentity)\n"
    }

    /// Size, modification time, device and inode of a file, as its `.source` line gives them.
    private static func line(_ identity: FileIdentity) -> String {
        let seconds = identity.modified / 1_000_000_000, nanoseconds = identity.modified % 1_000_000_000
        return "\(identity.size) \(seconds).\(nanoseconds) \(identity.device) \(identity.inode)"
    }

    /// The `.source` line of the file at `path` as it is now; nil when it cannot be read.
    private static func identity(of path: String) -> String? {
        (try? FileIdentity(URL(fileURLWithPath: path))).map(line)
    }

    /// Whether the temporary file `name` is left over: its writer (the process it names) has ended, or it
    /// is older than ``temporaryFileLifetime``. Foundation's atomic writes (`.dat.nosync…`, from the records of
    /// earlier versions) name no process and go by age alone.
    private static func isLeftOver(_ name: String, at path: String) -> Bool {
        if name.hasSuffix(".tmp"), let writer = name.dropLast(4).split(separator: ".").last?.split(separator: "-").first,
           let pid = pid_t(writer), pid > 0, kill(pid, 0) != 0, errno == ESRCH {
            return true
        }
        let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
        return modified.map { $0 < Date().addingTimeInterval(-temporaryFileLifetime) } ?? false
    }

    /// Deletes the files whose model or runtime is gone or changed, or whose `.source` is missing or gives
    /// another size; temporary files left over by processes that ended while writing (or long ago); and,
    /// once as old as a temporary file, `.source` files without their file.
    private func removeStaleFiles() {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names {
            let path = folder.appendingPathComponent(name).path
            if name.hasSuffix(".tmp") || name.hasPrefix(".dat.nosync") {
                if Self.isLeftOver(name, at: path) { unlink(path) }
            } else if name.hasSuffix(".\(Self.fileExtension)") {
                let record = "\(path).\(Self.sourceExtension)"
                let recorded = (try? Data(contentsOf: URL(fileURLWithPath: record))).map { String(decoding: $0, as: UTF8.self) }
                let lines = recorded?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
                var status = stat()
                let current = lines.count < 5 || stat(path, &status) != 0 ? nil : Self.identity(of: String(lines[0])).flatMap { model in
                    Self.identity(of: String(lines[2])).map { runtime in
                        Self.source(model: String(lines[0]), identity: model, runtime: String(lines[2]), runtimeIdentity: runtime)
                            + "\(status.st_size)\n"
                    }
                }
                if current == nil || current != recorded {
                    unlink(path)
                    unlink(record)
                }
            } else if name.hasSuffix(".\(Self.fileExtension).\(Self.sourceExtension)"),
                      !manager.fileExists(atPath: String(path.dropLast(Self.sourceExtension.count + 1))),
                      Self.isLeftOver(name, at: path) {
                unlink(path)
            }
        }
    }
}

/// XNNPACK's packed weights of one loaded model, as this process holds them: a memory file, which each
/// compilation of the model maps (so pooled instances share one copy) and which no other process or file can
/// change. It is filled from the ``PackedWeightCache`` file when there is one, else by the first compilation,
/// which packs the weights into it; they are then written to the cache for the next process.
final class PackedWeights: Sendable {
    /// The memory files, by the path of the cache file they hold.
    private let files = Mutex<[String: Int32]>([:])
    /// Held while a memory file is filled, so that concurrent compilations fill it once.
    private let filling = Mutex(())

    /// Runs `compile` with the descriptor of a memory file holding the model's packed weights, or, when it
    /// is empty, taking the weights XNNPACK packs; nil for no file (no cache, or no memory file could be made).
    /// The descriptor is `compile`'s own: XNNPACK closes it.
    func compile<Result>(
        model: LiteRT.Model, runtime: String, cache: PackedWeightCache?, _ compile: (Int32?) throws -> Result
    ) throws -> Result {
        guard let cache, let reservation = cache.reservation(forModel: model.url, identity: model.fileIdentity, runtime: runtime) else {
            return try compile(nil)
        }
        if let memory = files.withLock({ $0[reservation.path] }) { return try compile(dup(memory)) }
        return try filling.withLock { _ in
            if let memory = files.withLock({ $0[reservation.path] }) { return try compile(dup(memory)) }
            let memory = swiftvision_memory_file("swiftvision packed weights")
            guard memory >= 0 else { return try compile(nil) }
            let isFilled = reservation.read(into: memory)
            let result: Result
            do {
                result = try compile(dup(memory))
            } catch {
                close(memory)
                throw error
            }
            if !isFilled { reservation.keep(from: memory) }
            files.withLock { $0[reservation.path] = memory }
            return result
        }
    }

    deinit {
        files.withLock { $0.values.forEach { close($0) } }
    }
}
