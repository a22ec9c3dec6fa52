import Foundation
import SwiftVision

/// Where collections of analysed pictures are kept: items (photos and sampled video frames), each task's
/// output for them, the columns that filters read (labels, face counts, barcodes, text) and their embeddings.
///
/// A store holds a set of collections, each known by its name. An item is written with all its analyses at
/// once, or not at all, so a run that stops midway leaves no half-written item, and adding the same picture
/// again finds it by its content hash; removing an item removes everything about it.
public protocol CollectionStore: Sendable {
    /// Every collection with its counts, by name.
    func collections() throws -> [CollectionSummary]

    /// Makes an empty collection named `name` (1 to 200 characters); false when one of that name exists.
    func makeCollection(named name: String) throws -> Bool

    /// Whether `collection` already holds the picture with `contentHash` (at `timestampMs` for a video frame).
    func contains(contentHash: String, timestampMs: Int?, in collection: String) throws -> Bool

    /// Adds `record` to `collection` (made when missing) in one transaction, unless an item with the same
    /// content hash and timestamp is there already; clears any failure recorded for the record's source.
    func add(_ record: ItemRecord, to collection: String) throws -> AddOutcome

    /// Records that `source` could not be indexed into `collection` (made when missing), replacing any
    /// earlier failure of the same source.
    func recordFailure(source: String, message: String, in collection: String) throws

    /// The failures recorded for `collection`, oldest first.
    func failures(in collection: String) throws -> [IndexFailure]

    /// The item with `id` in `collection`, if there is one.
    func item(id: Int64, in collection: String) throws -> CollectionItem?

    /// The JPEG thumbnail of item `id` of `collection` (at most ``ItemRecord/thumbnailSide`` pixels a side), if
    /// it has one.
    func thumbnail(ofItem id: Int64, in collection: String) throws -> Data?

    /// Removes item `id` from `collection` with its analyses, embedding and thumbnail; false when there was none.
    func removeItem(id: Int64, from collection: String) throws -> Bool

    /// The unit-length embedding of item `id`, if it has one.
    func embedding(ofItem id: Int64) throws -> [Float]?

    /// The items of `collection` that pass every filter of `query`: the `limit` most similar to its vector
    /// (by cosine similarity, exactly), or without a vector the first `limit` in the order they were added.
    func search(_ query: CollectionQuery, in collection: String) throws -> [SearchHit]

    /// Groups of items of `collection` whose embeddings have a cosine similarity of at least `threshold`
    /// (linked pairwise: each item of a group is that close to at least one other of it).
    func duplicateGroups(in collection: String, threshold: Float) throws -> [[CollectionItem]]

    /// Calls `body` with every item of `collection` and its analyses, in the order they were added.
    func forEachItem(in collection: String, _ body: (ExportedItem) throws -> Void) throws
}

/// A collection's name and counts.
public struct CollectionSummary: Sendable, Hashable, Codable {
    /// The collection's name.
    public var name: String
    /// How many items it holds.
    public var items: Int
    /// How many sources failed to be indexed.
    public var failures: Int
    /// When it was made.
    public var createdAt: Date
}

/// One indexed picture: a photo, or one sampled frame of a video.
public struct CollectionItem: Sendable, Hashable, Codable {
    /// The item's number in its store.
    public var id: Int64
    /// SHA-256 of the file's bytes, in lowercase hexadecimal (for a video frame: of the video file).
    public var contentHash: String
    /// The path or URL the picture came from, as it was given.
    public var source: String
    /// A video frame's time in milliseconds; nil for a photo.
    public var timestampMs: Int?
    /// The upright picture's width in pixels.
    public var width: Int
    /// The upright picture's height in pixels.
    public var height: Int
    /// The EXIF orientation, 1–8.
    public var orientation: Int
    /// When the item was added.
    public var addedAt: Date

    /// An item as the store keeps it.
    public init(
        id: Int64, contentHash: String, source: String, timestampMs: Int?, width: Int, height: Int, orientation: Int,
        addedAt: Date
    ) {
        self.id = id
        self.contentHash = contentHash
        self.source = source
        self.timestampMs = timestampMs
        self.width = width
        self.height = height
        self.orientation = orientation
        self.addedAt = addedAt
    }
}

/// A picture to add, with what the tasks found in it.
public struct ItemRecord: Sendable {
    /// SHA-256 of the file's bytes, in lowercase hexadecimal.
    public var contentHash: String
    /// The path or URL the picture came from.
    public var source: String
    /// A video frame's time in milliseconds; nil for a photo.
    public var timestampMs: Int?
    /// The upright picture's width in pixels.
    public var width: Int
    /// The upright picture's height in pixels.
    public var height: Int
    /// The EXIF orientation, 1–8.
    public var orientation: Int
    /// The tasks' outputs.
    public var analysis: ItemAnalysis
    /// The upright picture scaled to at most ``thumbnailSide`` pixels a side, as JPEG; nil when it could not be made.
    public var thumbnail: Data?

    /// The longest side of a thumbnail, in pixels: a grid's tile on a high-density screen.
    public static let thumbnailSide = 256

    /// A record of a picture `image` from `source`, with its thumbnail.
    public init(contentHash: String, source: String, timestampMs: Int?, image: VisionImage, analysis: ItemAnalysis) {
        self.contentHash = contentHash
        self.source = source
        self.timestampMs = timestampMs
        width = image.width
        height = image.height
        orientation = Int(image.orientation.rawValue)
        self.analysis = analysis
        let scale = min(1, Double(Self.thumbnailSide) / Double(max(image.width, image.height, 1)))
        thumbnail = try? image.resized(
            width: max(1, Int((Double(image.width) * scale).rounded())), height: max(1, Int((Double(image.height) * scale).rounded()))
        ).encoded(as: .jpeg(quality: 80))
    }
}

/// What the indexed tasks found in one picture: each task's own output (its JSON is the command's
/// `--json` line), nil for the tasks that were not run.
public struct ItemAnalysis: Sendable {
    /// General labels (`label --general`).
    public var labels: LabelsTask.Output?
    /// Objects with their COCO classes (`detect --multiple --classify`).
    public var objects: ObjectsTask.Output?
    /// Faces (`faces`).
    public var faces: FacesTask.Output?
    /// Printed text (`text`).
    public var text: TextTask.Output?
    /// Barcodes (`barcodes`).
    public var barcodes: BarcodesTask.Output?
    /// The unit-length embedding (`embed --l2-normalize`).
    public var embeddings: EmbeddingsTask.Output?

    /// An analysis with no task's output yet.
    public init() {}
}

/// Whether ``CollectionStore/add(_:to:)`` wrote the item.
public enum AddOutcome: Sendable, Equatable {
    /// The item was written with this id.
    case added(Int64)
    /// An item with the same content hash and timestamp was there already, with this id.
    case alreadyIndexed(Int64)
}

/// A source that could not be indexed.
public struct IndexFailure: Sendable, Hashable, Codable {
    /// The path or URL as it was given.
    public var source: String
    /// Why it failed.
    public var message: String
    /// When it last failed.
    public var failedAt: Date
}

/// What to look for in a collection: filters, all of which an item must pass, then optionally similarity.
public struct CollectionQuery: Sendable {
    /// Labels (image labels or object classes, any case) that an item must all have, each at a confidence of
    /// at least ``labelConfidence``.
    public var labels: [String] = []
    /// Labels an item must have none of at a confidence of at least ``labelConfidence``.
    public var excludedLabels: [String] = []
    /// Words that an item's recognised text must all contain (full-text search).
    public var text: String?
    /// How many faces an item must have; items whose faces were not analysed never match.
    public var faceCount: ClosedRange<Int>?
    /// A barcode's exact text that an item must carry.
    public var barcode: String?
    /// Rank by cosine similarity to this vector (any length; it is scaled to unit length).
    public var vector: [Float]?
    /// Rank with an int8 first pass over every vector and exact scores for the best of them (``QuantizedMatrix``):
    /// about a quarter of the memory read per query, at a recall of the exact top 10 that docs/collections.md
    /// measures; exact by default.
    public var approximate = false
    /// The most items to return.
    public var limit = 10

    /// A query without filters.
    public init() {}

    /// The confidence from which a label or object class counts for the label filters. Set on `make eval`'s
    /// objects table (79 COCO val2017 photos, YOLOv4-tiny, up to 5 objects, the rows "precision, score …"):
    /// 34 of the 80 objects scored 0.25–0.5 are right (same class, IoU ≥ 0.5, matched as COCO does), 0.425;
    /// 135 of the 158 scored 0.5 or more, 0.854 (up to 10 objects, as collections index: 0.393 and 0.843).
    /// General labels on its 44 ImageNet class samples (the labels table): 0.056 right below 0.25, 5 of 5 at
    /// 0.25–0.5, 0.986 from 0.5; too few between 0.25 and 0.5 to lower the cut for labels alone.
    public static let labelConfidence: Float = 0.5
}

/// An item found by a search, with its cosine similarity when the search ranked by one.
public struct SearchHit: Sendable, Hashable {
    /// The item.
    public var item: CollectionItem
    /// The cosine similarity to the query's vector, −1…1; nil when the query had none.
    public var score: Float?
}

/// An item with its analyses, as `index export` writes it.
public struct ExportedItem: Sendable {
    /// The item.
    public var item: CollectionItem
    /// Each analysed task's output as its JSON object, by task name (`labels`, `objects`, `faces`, `text`,
    /// `barcodes`, `embeddings`).
    public var analyses: [String: Data]
}

/// Why a store refused a call.
public enum CollectionStoreError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// No collection of that name.
    case unknownCollection(String)
    /// No item of that id in the collection.
    case unknownItem(Int64, collection: String)
    /// The item has no embedding to search with.
    case noEmbedding(Int64)
    /// A collection name that is empty, longer than 200 characters or holds a control character.
    case invalidName(String)
    /// A query vector whose length differs from the collection's embeddings.
    case dimensionMismatch(query: Int, stored: Int)
    /// A query vector that is empty or has zero length.
    case zeroVector
    /// The database server refused a call or could not be reached, with its message.
    case database(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .unknownCollection(let name): "no collection named '\(name)' (swiftvision index list shows them)"
        case .unknownItem(let id, let collection): "no item \(id) in collection '\(collection)'"
        case .noEmbedding(let id): "item \(id) has no embedding: index it with --tasks embeddings"
        case .invalidName(let name):
            "invalid collection name '\(name.prefix(200))': "
                + "give 1 to 200 characters, none of them a control character"
        case .dimensionMismatch(let query, let stored):
            "the query's embedding has \(query) values, the collection's have \(stored): use the same embedder"
        case .zeroVector: "the query's embedding is empty or all zero"
        case .database(let message): "the collections database: \(message)"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }

    /// Refuses a collection name both stores could not keep as given: empty, longer than 200 characters, or
    /// holding a control character (SQLite cuts a name at NUL; PostgreSQL refuses NUL).
    static func check(name: String) throws {
        guard (1...200).contains(name.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw invalidName(name) }
    }
}

extension CollectionQuery {
    /// The face counts that `text` names: `2` (exactly two), `2..` (two or more), `..3` (at most three) or
    /// `1..2` (one or two); nil when it names none.
    public static func faceRange(_ text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "..", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { return Int(text).flatMap { $0 >= 0 ? $0...$0 : nil } }
        let lower = parts[0].isEmpty ? 0 : Int(parts[0])
        let upper = parts[1].isEmpty ? Int.max : Int(parts[1])
        guard let lower, let upper, lower >= 0, lower <= upper, !(parts[0].isEmpty && parts[1].isEmpty) else { return nil }
        return lower...upper
    }
}

/// Where a set of collections is kept: an SQLite file (the default) or a PostgreSQL database.
public enum CollectionStoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// An SQLite file, made on first use.
    case sqlite(URL)
    /// A PostgreSQL database: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`.
    case postgreSQL(URL)

    /// The location that `text` names: a `postgres://` or `postgresql://` URL, or else an SQLite file's path;
    /// nil names the default SQLite file in the cache folder.
    public init(_ text: String?) {
        guard let text else {
            self = .sqlite(SQLiteCollectionStore.defaultURL)
            return
        }
        if let url = URL(string: text), ["postgres", "postgresql"].contains(url.scheme?.lowercased()) {
            self = .postgreSQL(url)
        } else {
            self = .sqlite(URL(fileURLWithPath: text))
        }
    }

    /// Whether collections may already be there: an SQLite file that exists, or any database.
    public var mayHoldCollections: Bool {
        switch self {
        case .sqlite(let url): FileManager.default.fileExists(atPath: url.path)
        case .postgreSQL: true
        }
    }

    /// Opens the store, making its file or schema when missing.
    public func open() throws -> any CollectionStore {
        switch self {
        case .sqlite(let url): try SQLiteCollectionStore(url: url)
        case .postgreSQL(let url): try PostgreSQLCollectionStore(url: url)
        }
    }

    /// The file's path, or the database's URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let url): return url.path
        case .postgreSQL(let url):
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.password = nil
            components?.query = nil
            return components?.string ?? "postgres://"
        }
    }
}

extension CollectionStore {
    /// Removes from `collection` what re-indexing leaves behind: the items whose source file is gone, and
    /// those whose file now holds other bytes (its SHA-256 is not the item's content hash, so a changed
    /// photo's old version). Items from a source that is not an absolute path, or whose file is there but
    /// cannot be read, are kept. Returns the removed items, in the order they were added.
    public func prune(_ collection: String) throws -> [CollectionItem] {
        var items: [CollectionItem] = []
        try forEachItem(in: collection) { items.append($0.item) }
        var sourceStates: [String: SourceFileState] = [:]
        var removed: [CollectionItem] = []
        for item in items where item.source.hasPrefix("/") {
            let state = sourceStates[item.source] ?? SourceFileState(path: item.source)
            sourceStates[item.source] = state
            if state.outdates(item), try removeItem(id: item.id, from: collection) { removed.append(item) }
        }
        return removed
    }
}
