import Foundation

/// What an item's source file holds now, read once per file by ``CollectionStore/prune(_:)``.
enum SourceFileState {
    case gone
    case unreadable
    case hashed(String)

    init(path: String) {
        guard FileManager.default.fileExists(atPath: path) else {
            self = .gone
            return
        }
        if let hash = try? CollectionIndexer.fileHash(URL(fileURLWithPath: path)) {
            self = .hashed(hash)
        } else {
            self = .unreadable
        }
    }

    /// Whether `item` no longer matches its file: the file is gone or now holds other bytes. A file that is
    /// there but cannot be read says nothing, so its items are kept.
    func outdates(_ item: CollectionItem) -> Bool {
        switch self {
        case .gone: true
        case .unreadable: false
        case .hashed(let hash): hash != item.contentHash
        }
    }
}
