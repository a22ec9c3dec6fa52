import Crypto
import Foundation
import SwiftVisionCore
import ZIPFoundation

/// The files of a ZIP archive, read within limits: the files a TFLite model packs after its flatbuffer (labels,
/// vocabularies: ``LiteRT/Model/packedFileNames()``), and the models of a MediaPipe `.task` bundle, a ZIP archive
/// of the models one task runs under the names the task looks them up by (`hand_detector.tflite`, …).
///
/// The archive is read from memory (the file mapped), not from its path: ZIPFoundation's file-backed archive
/// leaks the path's C string (about 60 bytes) on every open.
public struct PackedFiles: Sendable {
    /// The most files an archive may hold: label files, vocabularies and a task's models are a handful.
    public static let maximumFileCount = 4096
    /// The most bytes one file may unpack to. A few kilobytes of compressed zeros can claim gigabytes, so the
    /// limit holds for what the archive says and for what actually comes out.
    public static let maximumFileSize = 64 << 20

    /// The archive: a model with packed files, or a `.task` bundle.
    public let url: URL

    /// The files of the archive at `url`; nothing is read until they are asked for.
    public init(url: URL) {
        self.url = url
    }

    /// Whether the file at `path` is a bundle of files, as a `.task` is: a readable ZIP archive that is not a TFLite
    /// model (whose packed files follow its flatbuffer). MediaPipe's published bundles start with two zero bytes
    /// before the archive's first header, so the archive is told by its directory at the end, not by its first bytes.
    public static func isBundle(atPath path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        guard let start = try? file.read(upToCount: 8), !FlatBufferTable.hasIdentifier("TFL3", in: start) else { return false }
        return (try? PackedFiles(url: URL(fileURLWithPath: path)).names()) != nil
    }

    /// The names of the files, in the archive's order.
    public func names() throws -> [String] {
        try withArchive { archive in
            var names: [String] = []
            for entry in archive {
                guard names.count < Self.maximumFileCount else {
                    throw MetadataError.packedFilesUnreadable(model: url.lastPathComponent, reason: "more than \(Self.maximumFileCount) files")
                }
                names.append(entry.path)
            }
            return names
        }
    }

    /// The contents of the file `name`, at most ``maximumFileSize`` bytes, its CRC-32 checked.
    public func contents(ofFile name: String) throws -> Data {
        try withArchive { archive in
            guard let entry = archive[name] else {
                throw MetadataError.packedFileNotFound(name: name, model: url.lastPathComponent)
            }
            let tooLarge = MetadataError.packedFileTooLarge(name: name, model: url.lastPathComponent, limit: Self.maximumFileSize)
            guard entry.uncompressedSize <= UInt64(Self.maximumFileSize) else { throw tooLarge }
            var contents = Data()
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                guard contents.count + chunk.count <= Self.maximumFileSize else { throw tooLarge }
                contents.append(chunk)
            }
            return contents
        }
    }

    /// The SHA-256 of a file's `contents` (``contents(ofFile:)``), in lowercase hexadecimal: how a bundle's model is
    /// told from another, once its bytes are read.
    public static func sha256(of contents: Data) -> String {
        SHA256.hash(data: contents).hexString
    }

    private func withArchive<Result>(_ body: (Archive) throws -> Result) throws -> Result {
        let archive: Archive
        do {
            archive = try Archive(data: Data(contentsOf: url, options: .alwaysMapped), accessMode: .read)
        } catch {
            throw MetadataError.packedFilesUnreadable(model: url.lastPathComponent, reason: "\(error)")
        }
        do {
            return try body(archive)
        } catch let error as MetadataError {
            throw error
        } catch {
            throw MetadataError.packedFilesUnreadable(model: url.lastPathComponent, reason: "\(error)")
        }
    }
}
