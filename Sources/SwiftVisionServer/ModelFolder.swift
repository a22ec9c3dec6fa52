import Crypto
import Foundation
import SwiftVision
import Synchronization

/// The `.tflite` files of one folder, by name, each with its SHA-256: what `swiftvision serve --models DIR`
/// hosts. A file is hashed once per version (device, inode, size and modification time), so a fleet that
/// replaces a model (a rename over the old file, or a rewrite) gets the new checksum on the next request.
/// A name is 1–128 ASCII letters, digits, `.`, `_` and `-`, not starting with `.`; a symbolic link is
/// followed only to a file inside the folder.
final class ModelFolder: Sendable {
    /// One model file, open: the version a request serves from start to end, even if the file is
    /// replaced meanwhile. Closed when the last reference goes.
    final class OpenFile: Sendable {
        let descriptor: Int32
        let size: Int
        let sha256: String

        init(descriptor: Int32, size: Int, sha256: String) {
            self.descriptor = descriptor
            self.size = size
            self.sha256 = sha256
        }

        deinit { close(descriptor) }

        /// Up to `count` bytes from `offset`; fewer only at the end of the file.
        func read(at offset: Int, count: Int) throws -> [UInt8] {
            try ModelFolder.read(descriptor, at: offset, count: count)
        }
    }

    /// A model as `GET /v1/models` lists it.
    struct Entry: Encodable {
        let name: String
        let size: Int
        let sha256: String
    }

    /// The folder, its symbolic links resolved.
    let folder: String
    /// The checksum of each file's last version seen, by path.
    private let digests = Mutex<[String: (version: FileIdentity, sha256: String)]>([:])

    /// The models of `folder`; throws when it is not a folder.
    init(_ folder: URL) throws {
        guard let real = realpath(folder.path, nil) else { throw ModelFolderError.notAFolder(folder.path) }
        defer { free(real) }
        var isFolder: ObjCBool = false
        let path = String(cString: real)
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ModelFolderError.notAFolder(folder.path)
        }
        self.folder = path
    }

    /// The model `name`, open, with its checksum; nil when the folder holds no such model.
    func open(_ name: String) throws -> OpenFile? {
        guard ModelHost.isValidModelName(name) else { throw ModelFolderError.invalidName }
        guard let real = realpath(folder + "/" + name + ".tflite", nil) else { return nil }
        let path = String(cString: real)
        free(real)
        guard path.hasPrefix(folder + "/") else { return nil }
        let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        guard let version = try? FileIdentity(descriptor: descriptor, url: URL(fileURLWithPath: path)) else {
            close(descriptor)
            return nil
        }
        if let known = digests.withLock({ $0[path] }), known.version == version {
            return OpenFile(descriptor: descriptor, size: version.size, sha256: known.sha256)
        }
        // Hashed from the open file, so the checksum is that of the bytes this request serves.
        var hasher = SHA256()
        var offset = 0
        while offset < version.size {
            let chunk: [UInt8]
            do {
                chunk = try Self.read(descriptor, at: offset, count: min(1 << 20, version.size - offset))
            } catch {
                close(descriptor)
                throw error
            }
            if chunk.isEmpty { break }
            hasher.update(data: chunk)
            offset += chunk.count
        }
        let sha256 = hasher.finalize().hexString
        digests.withLock { $0[path] = (version, sha256) }
        return OpenFile(descriptor: descriptor, size: version.size, sha256: sha256)
    }

    /// Up to `count` bytes of the file `descriptor` from `offset`; fewer only at the end of the file.
    private static func read(_ descriptor: Int32, at offset: Int, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw ModelFolderError.unreadable(String(cString: strerror(errno))) }
            if got == 0 { break }
            done += got
        }
        return Array(bytes.prefix(done))
    }

    /// Every model of the folder, by name.
    func list() throws -> [Entry] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted().compactMap { file in
            guard file.hasSuffix(".tflite") else { return nil }
            let name = String(file.dropLast(".tflite".count))
            guard ModelHost.isValidModelName(name), let model = try open(name) else { return nil }
            return Entry(name: name, size: model.size, sha256: model.sha256)
        }
    }
}

/// Why a model of the folder cannot be served.
enum ModelFolderError: Error, CustomStringConvertible {
    /// `--models` names no folder.
    case notAFolder(String)
    /// The name is not one a model can have.
    case invalidName
    /// The file could not be read.
    case unreadable(String)

    var description: String {
        switch self {
        case .notAFolder(let path): "--models \(path) is not a folder"
        case .invalidName:
            "a model name is 1–\(ModelHost.maximumNameLength) letters, digits, '.', '_' and '-', not starting with '.'"
        case .unreadable(let reason): "the model file cannot be read: \(reason)"
        }
    }
}
