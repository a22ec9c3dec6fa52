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
/// compilation has finished, so a reader never maps a half-written file.
package struct PackedWeightCache: Sendable, Hashable {
    /// The folder of the files.
    package let folder: URL

    /// The folder `packed-weights` of the current SwiftVision cache.
    package static let current = PackedWeightCache(folder: SwiftVisionCache.current.packedWeights)

    /// A cache in `folder`.
    package init(folder: URL) {
        self.folder = folder
    }

    /// Where the packed weights of `model`, as packed by the runtime at `runtime`, are read from or written
    /// to; nil when the model or runtime cannot be identified, or the folder cannot be made.
    func reservation(forModel model: URL, runtime: String) -> Reservation? {
        guard let modelIdentity = Self.identity(of: model.path), let runtimeIdentity = Self.identity(of: runtime) else {
            return nil
        }
        let digest = SHA256.hash(data: Data("\(model.path)\n\(modelIdentity)\n\(runtime)\n\(runtimeIdentity)".utf8))
        let key = digest.prefix(12).map { String(format: "%02x", $0) }.joined()
        let stem = model.deletingPathExtension().lastPathComponent.filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        let file = folder.appendingPathComponent("\(stem)-\(key).xnnpack")
        if FileManager.default.fileExists(atPath: file.path) {
            return Reservation(path: file.path, finalPath: nil)
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            return nil
        }
        guard access(folder.path, W_OK) == 0 else { return nil }
        removeAbandonedFiles()
        let temporary = "\(file.path).\(getpid())-\(UInt64.random(in: 0...UInt64.max)).tmp"
        return Reservation(path: temporary, finalPath: file.path)
    }

    /// The file of one compilation: an existing file to map, or a temporary one to write and then keep.
    struct Reservation {
        /// The path given to XNNPACK.
        let path: String
        /// Where the written file goes once the compilation succeeded; nil when an existing file is read.
        let finalPath: String?

        /// Keeps the written file (the compilation succeeded).
        func keep() {
            guard let finalPath else { return }
            if rename(path, finalPath) != 0 { unlink(path) }
        }

        /// Removes the written file (the compilation failed).
        func discard() {
            if finalPath != nil { unlink(path) }
        }
    }

    /// Size, modification time and inode of the file at `path`; nil when it cannot be read.
    private static func identity(of path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return "\(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) \(status.st_dev) \(status.st_ino)"
    }

    /// Deletes temporary files that processes which ended while compiling left behind (older than an hour).
    private func removeAbandonedFiles() {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return }
        let cutoff = Date().addingTimeInterval(-3600)
        for name in names where name.hasSuffix(".tmp") {
            let path = folder.appendingPathComponent(name).path
            if let modified = try? manager.attributesOfItem(atPath: path)[.modificationDate] as? Date, modified < cutoff {
                unlink(path)
            }
        }
    }
}
