import Foundation
import SwiftVisionCore
import ZIPFoundation

extension LiteRT.Model {
    /// The most files a model may pack: label files, vocabularies and the like are a handful.
    public static let maximumPackedFileCount = 4096
    /// The most bytes one packed file may unpack to. A few kilobytes of compressed zeros can claim
    /// gigabytes, so the limit holds for what the archive says and for what actually comes out.
    public static let maximumPackedFileSize = 64 << 20

    /// The names of the files packed in the model (the zip archive appended by TFLite's metadata writer).
    public func packedFileNames() throws -> [String] {
        try withPackedArchive { archive in
            var names: [String] = []
            for entry in archive {
                guard names.count < Self.maximumPackedFileCount else {
                    throw MetadataError.packedFilesUnreadable(
                        model: url.lastPathComponent, reason: "more than \(Self.maximumPackedFileCount) files")
                }
                names.append(entry.path)
            }
            return names
        }
    }

    /// The contents of the packed file `name`, at most ``maximumPackedFileSize`` bytes.
    public func packedFile(named name: String) throws -> Data {
        try withPackedArchive { archive in
            guard let entry = archive[name] else {
                throw MetadataError.packedFileNotFound(name: name, model: url.lastPathComponent)
            }
            let tooLarge = MetadataError.packedFileTooLarge(name: name, model: url.lastPathComponent, limit: Self.maximumPackedFileSize)
            guard entry.uncompressedSize <= UInt64(Self.maximumPackedFileSize) else { throw tooLarge }
            var contents = Data()
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                guard contents.count + chunk.count <= Self.maximumPackedFileSize else { throw tooLarge }
                contents.append(chunk)
            }
            return contents
        }
    }

    /// The labels of output `index`, one per line of its `.tensorAxisLabels` (or `.tensorValueLabels`) file,
    /// else of such a file attached to the whole model; nil when the metadata names no label file.
    public func labels(forOutput index: Int = 0) throws -> [String]? {
        guard let metadata else { return nil }
        let candidates = (metadata.outputs.dropFirst(index).first?.associatedFiles ?? []) + metadata.associatedFiles
        guard let file = candidates.first(where: { $0.type == .tensorAxisLabels })
            ?? candidates.first(where: { $0.type == .tensorValueLabels })
        else { return nil }
        let text = String(decoding: try packedFile(named: file.name), as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Opens the model's bytes as a ZIP archive. From memory (the file mapped), not from `url`: ZIPFoundation's
    /// file-backed archive leaks the path's C string (about 60 bytes) on every open.
    private func withPackedArchive<Result>(_ body: (Archive) throws -> Result) throws -> Result {
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
