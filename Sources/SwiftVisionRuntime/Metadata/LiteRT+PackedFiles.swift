import Foundation
import SwiftVisionCore

extension LiteRT.Model {
    /// The most files a model may pack: label files, vocabularies and the like are a handful.
    public static let maximumPackedFileCount = PackedFiles.maximumFileCount
    /// The most bytes one packed file may unpack to (``PackedFiles/maximumFileSize``).
    public static let maximumPackedFileSize = PackedFiles.maximumFileSize

    /// The names of the files packed in the model (the zip archive appended by TFLite's metadata writer).
    public func packedFileNames() throws -> [String] {
        try PackedFiles(url: url).names()
    }

    /// The contents of the packed file `name`, at most ``maximumPackedFileSize`` bytes.
    public func packedFile(named name: String) throws -> Data {
        try PackedFiles(url: url).contents(ofFile: name)
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
}
