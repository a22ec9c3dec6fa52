import Crypto
import Foundation

/// Files of XNNPACK's packed weights, one per model file: compiling a model repacks its weights into
/// XNNPACK's layouts (18 MB for EfficientNet-Lite0's 4.6 MB, 35 MB for YOLOv3-tiny), which costs more than
/// a one-image run's inference. With a file, the first compilation writes the packed weights and every
/// later one (the next command, a restarted server, another instance in the pool) maps them instead.
///
/// A file is named after the model's name and a digest of what identifies the model and the runtime
/// that packed it (path, size, modification time, inode; the same of `libLiteRt.so`): a changed model or
/// runtime gets a new file. It is written under a temporary name and renamed into place once the
/// compilation has finished, so a reader never maps a half-written file. Beside it, a `.source` file
/// records that identity and the file's size; a file whose size differs (cut short on a full disk or by a
/// copy) is packed anew before XNNPACK sees it. Each time a file is written, the files of models that are
/// gone or changed since (a deleted copy, an updated download, another runtime) are removed, so the folder
/// does not grow for ever.
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

    /// Where the packed weights of `model`, as packed by the runtime at `runtime`, are read from or written
    /// to; nil when the model or runtime cannot be identified, or the folder cannot be written.
    func reservation(forModel model: URL, runtime: String) -> Reservation? {
        guard let source = Self.source(model: model.path, runtime: runtime) else { return nil }
        let key = SHA256.hash(data: Data(source.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
        let stem = model.deletingPathExtension().lastPathComponent.filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        let file = folder.appendingPathComponent("\(stem)-\(key).\(Self.fileExtension)").path
        if FileManager.default.fileExists(atPath: file) {
            if Self.isRecorded(file, source: source) { return Reservation(path: file, finalPath: nil, source: source) }
            unlink(file)
            unlink("\(file).\(Self.sourceExtension)")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return nil
        }
        guard access(folder.path, W_OK) == 0 else { return nil }
        removeStaleFiles()
        return Reservation(path: "\(file).\(getpid())-\(UInt64.random(in: 0...UInt64.max)).tmp", finalPath: file, source: source)
    }

    /// The file of one compilation: an existing file to map, or a temporary one to write and then keep.
    struct Reservation {
        /// The path given to XNNPACK.
        let path: String
        /// Where the written file goes once the compilation succeeded; nil when an existing file is read.
        let finalPath: String?
        /// What the file was packed from, for its `.source` file.
        let source: String

        /// Keeps the written file (the compilation succeeded), its `.source` file first.
        func keep() {
            guard let finalPath else { return }
            let record = URL(fileURLWithPath: "\(finalPath).\(PackedWeightCache.sourceExtension)")
            guard let contents = PackedWeightCache.record(of: path, source: source),
                (try? Data(contents.utf8).write(to: record, options: .atomic)) != nil, rename(path, finalPath) == 0
            else {
                unlink(path)
                return
            }
        }

        /// Removes the written file (the compilation failed).
        func discard() {
            if finalPath != nil { unlink(path) }
        }
    }

    /// The model's and the runtime's paths and identities, one per line; nil when either cannot be read.
    private static func source(model: String, runtime: String) -> String? {
        guard let modelIdentity = identity(of: model), let runtimeIdentity = identity(of: runtime) else { return nil }
        return "\(model)\n\(modelIdentity)\n\(runtime)\n\(runtimeIdentity)\n"
    }

    /// The `.source` record of the packed file at `path` packed from `source`: `source`, then the file's size.
    private static func record(of path: String, source: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return "\(source)\(status.st_size)\n"
    }

    /// Whether the packed file at `path` has its record, for `source` and the file's present size.
    private static func isRecorded(_ path: String, source: String) -> Bool {
        guard let recorded = try? Data(contentsOf: URL(fileURLWithPath: "\(path).\(sourceExtension)")) else { return false }
        return record(of: path, source: source) == String(decoding: recorded, as: UTF8.self)
    }

    /// Size, modification time, device and inode of the file at `path`; nil when it cannot be read.
    private static func identity(of path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return "\(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) \(status.st_dev) \(status.st_ino)"
    }

    /// Deletes the files whose model or runtime is gone or changed, or whose `.source` is missing or gives
    /// another size, and,
    /// once older than an hour, temporary files and `.source` files without their file that processes which
    /// ended while compiling left behind.
    private func removeStaleFiles() {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return }
        let cutoff = Date().addingTimeInterval(-3600)
        func isOld(_ path: String) -> Bool {
            ((try? manager.attributesOfItem(atPath: path)[.modificationDate]) as? Date).map { $0 < cutoff } ?? false
        }
        for name in names {
            let path = folder.appendingPathComponent(name).path
            if name.hasSuffix(".tmp") {
                if isOld(path) { unlink(path) }
            } else if name.hasSuffix(".\(Self.fileExtension)") {
                let record = "\(path).\(Self.sourceExtension)"
                let recorded = (try? Data(contentsOf: URL(fileURLWithPath: record))).map { String(decoding: $0, as: UTF8.self) }
                let lines = recorded?.split(separator: "\n", omittingEmptySubsequences: false) ?? []
                let source = lines.count < 3 ? nil : Self.source(model: String(lines[0]), runtime: String(lines[2]))
                if source.map({ Self.record(of: path, source: $0) == recorded }) != true {
                    unlink(path)
                    unlink(record)
                }
            } else if name.hasSuffix(".\(Self.fileExtension).\(Self.sourceExtension)"),
                      !manager.fileExists(atPath: String(path.dropLast(Self.sourceExtension.count + 1))), isOld(path) {
                unlink(path)
            }
        }
    }
}
