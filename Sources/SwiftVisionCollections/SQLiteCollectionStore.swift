import Foundation
import GRDB
import SwiftVision

/// The default ``CollectionStore``: one SQLite file (through GRDB) for a set of collections, in WAL mode so
/// that searches read while an ingest writes, from this process or others. The schema is made and moved
/// forward by GRDB's migrator; docs/collections.md describes it.
public final class SQLiteCollectionStore: CollectionStore {
    /// The database file.
    public let url: URL
    private let pool: DatabasePool
    /// Each collection's embeddings as last loaded, reused while the collection has gained none.
    private let vectorCache = VectorCache()

    /// The default database file: `collections/collections.sqlite` in the cache folder.
    public static var defaultURL: URL {
        SwiftVisionCache.current.root.appendingPathComponent("collections", isDirectory: true)
            .appendingPathComponent("collections.sqlite")
    }

    /// Opens (making it and its folder when missing) the database at `url` and brings its schema up to date.
    public init(url: URL = SQLiteCollectionStore.defaultURL) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        // Another process writing (an ingest) holds the lock for one item's transaction at a time.
        configuration.busyMode = .timeout(30)
        pool = try Self.holdingOpenLock(of: url) {
            let pool = try DatabasePool(path: url.path, configuration: configuration)
            try Self.migrator.migrate(pool)
            return pool
        }
    }

    /// Runs `body` holding an exclusive `flock` on `<database>-open.lock`, so that stores opening one file
    /// together (in this process or others) switch it to WAL and migrate it one after the other. Neither
    /// step waits on the busy timeout by itself: SQLite answers `PRAGMA journal_mode = WAL` with
    /// SQLITE_BUSY at once while another connection holds a lock, and GRDB's migrator reads which
    /// migrations are applied before it takes the write lock, so two would both create the tables.
    /// A holder's wait is itself bounded by the busy timeout, statement by statement.
    private static func holdingOpenLock<T>(of url: URL, _ body: () throws -> T) throws -> T {
        let descriptor = open(url.path + "-open.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }  // closing the file releases its lock
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        return try body()
    }

    /// Copies the database into a new file at `url` with SQLite's online backup API, page by page, while
    /// other connections go on reading and writing; the copy is consistent as of the moment it ends.
    public func backup(to url: URL) throws {
        let copy = try DatabaseQueue(path: url.path)
        try pool.backup(to: copy)
    }

    /// The schema's migrations, in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE collection (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL UNIQUE,
                        createdAt DATETIME NOT NULL);
                    CREATE TABLE item (
                        id INTEGER PRIMARY KEY,
                        collectionId INTEGER NOT NULL REFERENCES collection(id) ON DELETE CASCADE,
                        contentHash TEXT NOT NULL,
                        source TEXT NOT NULL,
                        timestampMs INTEGER,
                        width INTEGER NOT NULL,
                        height INTEGER NOT NULL,
                        orientation INTEGER NOT NULL,
                        faceCount INTEGER,
                        addedAt DATETIME NOT NULL);
                    CREATE UNIQUE INDEX item_content ON item(collectionId, contentHash, ifnull(timestampMs, -1));
                    CREATE INDEX item_faces ON item(collectionId, faceCount);
                    CREATE TABLE analysis (
                        itemId INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                        task TEXT NOT NULL,
                        json TEXT NOT NULL,
                        PRIMARY KEY (itemId, task)) WITHOUT ROWID;
                    CREATE TABLE label (
                        itemId INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                        name TEXT NOT NULL COLLATE NOCASE,
                        task TEXT NOT NULL,
                        confidence REAL NOT NULL,
                        PRIMARY KEY (itemId, task, name)) WITHOUT ROWID;
                    CREATE INDEX label_name ON label(name, itemId);
                    CREATE TABLE barcode (
                        itemId INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                        format TEXT NOT NULL,
                        value TEXT NOT NULL);
                    CREATE INDEX barcode_value ON barcode(value, itemId);
                    CREATE INDEX barcode_item ON barcode(itemId);
                    CREATE VIRTUAL TABLE itemText USING fts5(text);
                    CREATE TABLE embedding (
                        itemId INTEGER PRIMARY KEY REFERENCES item(id) ON DELETE CASCADE,
                        vector BLOB NOT NULL,
                        quantized BLOB NOT NULL);
                    CREATE TABLE failure (
                        collectionId INTEGER NOT NULL REFERENCES collection(id) ON DELETE CASCADE,
                        source TEXT NOT NULL,
                        message TEXT NOT NULL,
                        failedAt DATETIME NOT NULL,
                        PRIMARY KEY (collectionId, source)) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v2") { db in
            // A revision that every addition and removal moves on, so that cached vectors are never stale (an
            // item's id can come back after the newest item was removed); and each item's thumbnail.
            try db.execute(
                sql: """
                    ALTER TABLE collection ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
                    CREATE TABLE thumbnail (
                        itemId INTEGER PRIMARY KEY REFERENCES item(id) ON DELETE CASCADE,
                        jpeg BLOB NOT NULL);
                    """)
        }
        return migrator
    }

    public func collections() throws -> [CollectionSummary] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT name, createdAt,
                        (SELECT count(*) FROM item WHERE collectionId = collection.id) AS items,
                        (SELECT count(*) FROM failure WHERE collectionId = collection.id) AS failures
                    FROM collection ORDER BY name
                    """
            ).map { row in
                CollectionSummary(name: row["name"], items: row["items"], failures: row["failures"], createdAt: row["createdAt"])
            }
        }
    }

    public func makeCollection(named name: String) throws -> Bool {
        try pool.write { db in
            let existed = try Self.collectionId(db, name) != nil
            _ = try Self.makeCollection(db, name)
            return !existed
        }
    }

    public func contains(contentHash: String, timestampMs: Int?, in collection: String) throws -> Bool {
        try pool.read { db in
            guard let collectionId = try Self.collectionId(db, collection) else { return false }
            return try Self.itemId(db, collectionId: collectionId, contentHash: contentHash, timestampMs: timestampMs) != nil
        }
    }

    public func add(_ record: ItemRecord, to collection: String) throws -> AddOutcome {
        let encoded = try EncodedAnalysis(record.analysis)
        return try pool.write { db in
            let collectionId = try Self.makeCollection(db, collection)
            if let existing = try Self.itemId(db, collectionId: collectionId, contentHash: record.contentHash, timestampMs: record.timestampMs) {
                return .alreadyIndexed(existing)
            }
            try db.execute(
                sql: """
                    INSERT INTO item (collectionId, contentHash, source, timestampMs, width, height, orientation, faceCount, addedAt)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    collectionId, record.contentHash, record.source, record.timestampMs, record.width, record.height,
                    record.orientation, record.analysis.faces?.faces.count, Date(),
                ])
            let id = db.lastInsertedRowID
            for (task, json) in encoded.outputs {
                try db.execute(sql: "INSERT INTO analysis (itemId, task, json) VALUES (?, ?, ?)", arguments: [id, task, json])
            }
            for label in encoded.labels {
                try db.execute(
                    sql: "INSERT INTO label (itemId, name, task, confidence) VALUES (?, ?, ?, ?)",
                    arguments: [id, label.name, label.task, label.confidence])
            }
            for barcode in record.analysis.barcodes?.barcodes ?? [] {
                try db.execute(
                    sql: "INSERT INTO barcode (itemId, format, value) VALUES (?, ?, ?)",
                    arguments: [id, barcode.format.description, barcode.rawValue])
            }
            if let text = record.analysis.text?.text, !text.isEmpty {
                try db.execute(sql: "INSERT INTO itemText (rowid, text) VALUES (?, ?)", arguments: [id, text])
            }
            if let vector = encoded.vector, let quantized = encoded.quantized {
                try db.execute(
                    sql: "INSERT INTO embedding (itemId, vector, quantized) VALUES (?, ?, ?)", arguments: [id, vector, quantized])
            }
            if let thumbnail = record.thumbnail {
                try db.execute(sql: "INSERT INTO thumbnail (itemId, jpeg) VALUES (?, ?)", arguments: [id, thumbnail])
            }
            try db.execute(sql: "UPDATE collection SET revision = revision + 1 WHERE id = ?", arguments: [collectionId])
            try db.execute(
                sql: "DELETE FROM failure WHERE collectionId = ? AND source = ?", arguments: [collectionId, record.source])
            return .added(id)
        }
    }

    public func recordFailure(source: String, message: String, in collection: String) throws {
        try pool.write { db in
            let collectionId = try Self.makeCollection(db, collection)
            try db.execute(
                sql: "INSERT OR REPLACE INTO failure (collectionId, source, message, failedAt) VALUES (?, ?, ?, ?)",
                arguments: [collectionId, source, message, Date()])
        }
    }

    public func failures(in collection: String) throws -> [IndexFailure] {
        try pool.read { db in
            let collectionId = try Self.existingCollectionId(db, collection)
            return try Row.fetchAll(
                db, sql: "SELECT source, message, failedAt FROM failure WHERE collectionId = ? ORDER BY failedAt, source",
                arguments: [collectionId]
            ).map { IndexFailure(source: $0["source"], message: $0["message"], failedAt: $0["failedAt"]) }
        }
    }

    public func item(id: Int64, in collection: String) throws -> CollectionItem? {
        try pool.read { db in
            let collectionId = try Self.existingCollectionId(db, collection)
            return try Row.fetchOne(
                db, sql: "SELECT * FROM item WHERE id = ? AND collectionId = ?", arguments: [id, collectionId]
            ).map(Self.item)
        }
    }

    public func thumbnail(ofItem id: Int64, in collection: String) throws -> Data? {
        try pool.read { db in
            let collectionId = try Self.existingCollectionId(db, collection)
            return try Data.fetchOne(
                db,
                sql: "SELECT jpeg FROM thumbnail JOIN item ON item.id = thumbnail.itemId WHERE item.id = ? AND item.collectionId = ?",
                arguments: [id, collectionId])
        }
    }

    public func removeItem(id: Int64, from collection: String) throws -> Bool {
        try pool.write { db in
            let collectionId = try Self.existingCollectionId(db, collection)
            try db.execute(sql: "DELETE FROM item WHERE id = ? AND collectionId = ?", arguments: [id, collectionId])
            guard db.changesCount > 0 else { return false }
            // FTS5 tables take no foreign keys: the text goes by hand.
            try db.execute(sql: "DELETE FROM itemText WHERE rowid = ?", arguments: [id])
            try db.execute(sql: "UPDATE collection SET revision = revision + 1 WHERE id = ?", arguments: [collectionId])
            return true
        }
    }

    public func embedding(ofItem id: Int64) throws -> [Float]? {
        try pool.read { db in
            try Data.fetchOne(db, sql: "SELECT vector FROM embedding WHERE itemId = ?", arguments: [id]).map(BlobCoding.floats)
        }
    }

    public func search(_ query: CollectionQuery, in collection: String) throws -> [SearchHit] {
        guard query.limit > 0 else { return [] }
        let (collectionId, candidates) = try pool.read { db in
            let collectionId = try Self.existingCollectionId(db, collection)
            let filter = Self.filter(query, collectionId: collectionId)
            // Without ranking, the first `limit` matches in order; with it, every match is a candidate.
            let limit = query.vector == nil ? " LIMIT \(query.limit)" : ""
            let sql = "SELECT id FROM item WHERE \(filter.sql) ORDER BY id" + limit
            return (collectionId, try Int64.fetchAll(db, sql: sql, arguments: filter.arguments))
        }
        return try hits(of: query, candidates: candidates, vectors: { try cachedVectors(collectionId: collectionId) }, items: items)
    }

    public func duplicateGroups(in collection: String, threshold: Float) throws -> [[CollectionItem]] {
        let collectionId = try pool.read { db in try Self.existingCollectionId(db, collection) }
        return try itemGroups(try cachedVectors(collectionId: collectionId).duplicateGroups(threshold: threshold), items: items)
    }

    public func forEachItem(in collection: String, _ body: (ExportedItem) throws -> Void) throws {
        try pool.read { db in
            let collectionId = try Self.existingCollectionId(db, collection)
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM item WHERE collectionId = ? ORDER BY id", arguments: [collectionId])
            while let row = try rows.next() {
                let item = Self.item(row)
                var analyses: [String: Data] = [:]
                for analysis in try Row.fetchAll(db, sql: "SELECT task, json FROM analysis WHERE itemId = ?", arguments: [item.id]) {
                    analyses[analysis["task"]] = Data((analysis["json"] as String).utf8)
                }
                if let vector = try Data.fetchOne(db, sql: "SELECT vector FROM embedding WHERE itemId = ?", arguments: [item.id]) {
                    let output = EmbeddingsTask.Output(embeddings: [Embedding(floatEmbedding: BlobCoding.floats(vector))])
                    analyses[EmbeddingsTask.descriptor.name] = try EncodedAnalysis.encoder.encode(output)
                }
                try body(ExportedItem(item: item, analyses: analyses))
            }
        }
    }

    /// The items with `ids`, in id order.
    private func items(_ ids: [Int64]) throws -> [CollectionItem] {
        guard !ids.isEmpty else { return [] }
        return try pool.read { db in
            let marks = Array(repeating: "?", count: ids.count).joined(separator: ",")
            return try Row.fetchAll(
                db, sql: "SELECT * FROM item WHERE id IN (\(marks)) ORDER BY id", arguments: StatementArguments(ids)
            ).map(Self.item)
        }
    }

    /// The collection's embeddings, loaded again only when items were added or removed since they were last loaded.
    private func cachedVectors(collectionId: Int64) throws -> CollectionVectors {
        try pool.read { db in
            let version = try Int64.fetchOne(db, sql: "SELECT revision FROM collection WHERE id = ?", arguments: [collectionId]) ?? 0
            return try vectorCache.vectors(ofCollection: collectionId, at: version) {
                try CollectionVectors(version: version) { add in
                    let cursor = try Row.fetchCursor(
                        db,
                        sql: """
                            SELECT embedding.itemId, embedding.vector FROM embedding JOIN item ON item.id = embedding.itemId
                            WHERE item.collectionId = ? ORDER BY embedding.itemId
                            """, arguments: [collectionId])
                    while let row = try cursor.next() { add(row["itemId"], BlobCoding.floats(row["vector"])) }
                }
            }
        }
    }

    private static func filter(_ query: CollectionQuery, collectionId: Int64) -> (sql: String, arguments: StatementArguments) {
        var clauses = ["collectionId = ?"]
        var arguments: StatementArguments = [collectionId]
        let confident = "label.itemId = item.id AND label.name = ? AND label.confidence >= ?"
        for label in query.labels {
            clauses.append("EXISTS (SELECT 1 FROM label WHERE \(confident))")
            _ = arguments.append(contentsOf: [label, CollectionQuery.labelConfidence])
        }
        for label in query.excludedLabels {
            clauses.append("NOT EXISTS (SELECT 1 FROM label WHERE \(confident))")
            _ = arguments.append(contentsOf: [label, CollectionQuery.labelConfidence])
        }
        if let text = query.text {
            clauses.append("id IN (SELECT rowid FROM itemText WHERE itemText MATCH ?)")
            _ = arguments.append(contentsOf: [FullText.matchExpression(text)])
        }
        if let faces = query.faceCount {
            clauses.append("faceCount BETWEEN ? AND ?")
            _ = arguments.append(contentsOf: [faces.lowerBound, faces.upperBound])
        }
        if let barcode = query.barcode {
            clauses.append("EXISTS (SELECT 1 FROM barcode WHERE barcode.itemId = item.id AND barcode.value = ?)")
            _ = arguments.append(contentsOf: [barcode])
        }
        return (clauses.joined(separator: " AND "), arguments)
    }

    private static func item(_ row: Row) -> CollectionItem {
        CollectionItem(
            id: row["id"], contentHash: row["contentHash"], source: row["source"], timestampMs: row["timestampMs"],
            width: row["width"], height: row["height"], orientation: row["orientation"], addedAt: row["addedAt"])
    }

    private static func collectionId(_ db: Database, _ name: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM collection WHERE name = ?", arguments: [name])
    }

    private static func existingCollectionId(_ db: Database, _ name: String) throws -> Int64 {
        guard let id = try collectionId(db, name) else { throw CollectionStoreError.unknownCollection(name) }
        return id
    }

    private static func makeCollection(_ db: Database, _ name: String) throws -> Int64 {
        try CollectionStoreError.check(name: name)
        if let id = try collectionId(db, name) { return id }
        try db.execute(sql: "INSERT INTO collection (name, createdAt) VALUES (?, ?)", arguments: [name, Date()])
        return db.lastInsertedRowID
    }

    private static func itemId(_ db: Database, collectionId: Int64, contentHash: String, timestampMs: Int?) throws -> Int64? {
        try Int64.fetchOne(
            db,
            sql: "SELECT id FROM item WHERE collectionId = ? AND contentHash = ? AND ifnull(timestampMs, -1) = ?",
            arguments: [collectionId, contentHash, timestampMs ?? -1])
    }
}

extension CollectionQuery {
    /// Whether any filter narrows the items.
    var hasFilters: Bool {
        !labels.isEmpty || !excludedLabels.isEmpty || text != nil || faceCount != nil || barcode != nil
    }
}

/// FTS5 queries built from what a user typed.
enum FullText {
    /// Each word of `text` as a quoted FTS5 string, all of them required: no character of the input is
    /// read as FTS5 syntax, so any input is a valid query.
    static func matchExpression(_ text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace).map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        return words.isEmpty ? "\"\"" : words.joined(separator: " AND ")
    }
}

/// Vectors as the blobs the store keeps: float32 and int8 values in the machine's byte order (little-endian
/// on every platform Swift runs on Linux).
enum BlobCoding {
    static func data(_ floats: [Float]) -> Data { floats.withUnsafeBytes { Data($0) } }

    static func data(_ bytes: [Int8]) -> Data { bytes.withUnsafeBytes { Data($0) } }

    static func floats(_ data: Data) -> [Float] {
        var floats = [Float](repeating: 0, count: data.count / MemoryLayout<Float>.stride)
        _ = floats.withUnsafeMutableBytes { data.copyBytes(to: $0) }
        return floats
    }
}

/// An item's analyses as the store writes them: each task's JSON, the label rows, and the embedding's blobs.
struct EncodedAnalysis {
    /// The encoder of the tasks' JSON: the command line's (sorted keys, slashes unescaped).
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// (task name, JSON) of every task but the embeddings, whose JSON is rebuilt from the float blob.
    var outputs: [(String, String)] = []
    /// One row per distinct label of each task, at its highest confidence.
    var labels: [(name: String, task: String, confidence: Float)] = []
    /// The unit-length embedding as float32.
    var vector: Data?
    /// The embedding scalar-quantized to int8 by MediaPipe's rule.
    var quantized: Data?

    init(_ analysis: ItemAnalysis) throws {
        try add(analysis.labels, LabelsTask.self)
        try add(analysis.objects, ObjectsTask.self)
        try add(analysis.faces, FacesTask.self)
        try add(analysis.text, TextTask.self)
        try add(analysis.barcodes, BarcodesTask.self)
        addLabels(analysis.labels?.labels ?? [], task: LabelsTask.descriptor.name)
        addLabels(analysis.objects?.objects.flatMap(\.labels) ?? [], task: ObjectsTask.descriptor.name)
        if let values = analysis.embeddings?.embeddings.first?.floatEmbedding {
            vector = BlobCoding.data(values)
            let quantized = Embedding(values: values, l2Normalize: false, quantize: true, headIndex: 0, headName: nil)
            self.quantized = BlobCoding.data(quantized.quantizedEmbedding ?? [])
        }
    }

    private mutating func add<Task: VisionTask>(_ output: Task.Output?, _ task: Task.Type) throws {
        guard let output else { return }
        outputs.append((Task.descriptor.name, String(decoding: try Self.encoder.encode(output), as: UTF8.self)))
    }

    private mutating func addLabels(_ found: [ClassLabel], task: String) {
        var best: [String: Float] = [:]
        for label in found where !label.text.isEmpty {
            best[label.text.lowercased()] = max(best[label.text.lowercased()] ?? 0, label.confidence)
        }
        labels += best.sorted { $0.key < $1.key }.map { ($0.key, task, $0.value) }
    }
}
