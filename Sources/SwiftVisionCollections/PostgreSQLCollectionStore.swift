import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import SwiftVision
import Synchronization

/// A ``CollectionStore`` on a PostgreSQL server, for several machines: the same schema as
/// ``SQLiteCollectionStore`` (in the schema `swiftvision` of the database), the same results, and the
/// same exact search over the embeddings, which each process keeps in memory.
///
/// Several `swiftvision serve` replicas behind one load balancer share a collection through it: every
/// search first asks the server for the collection's revision (moved on by every addition and removal),
/// so an item added through one replica is searched by the others from the next request on. pgvector is
/// not used: Debian 12's PostgreSQL 15 does not package it (docs/collections.md).
///
/// Calls block the calling thread (they run on NIO's event loops): call the store from a thread of your
/// own, as the service's inference threads and the command line do, never from an event loop.
public final class PostgreSQLCollectionStore: CollectionStore {
    /// The server and database, without the password.
    public let location: String
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let connection = Mutex<PostgresConnection?>(nil)
    private let connections = Atomic<Int>(0)
    private let vectorCache = VectorCache()

    /// Connects to the database that `url` names (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, with
    /// `?sslmode=disable|prefer|require`; `prefer` by default, `disable` for a loopback host) and brings
    /// the schema up to date.
    public init(url: URL) throws {
        guard ["postgres", "postgresql"].contains(url.scheme?.lowercased()), let host = url.host, !host.isEmpty else {
            throw CollectionStoreError.database("a PostgreSQL store takes postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let mode = components?.queryItems?.first { $0.name == "sslmode" }?.value
        let loopback = ["localhost", "127.0.0.1", "::1"].contains(host)
        let tls: PostgresConnection.Configuration.TLS
        switch mode ?? (loopback ? "disable" : "prefer") {
        case "disable": tls = .disable
        case "prefer": tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case "require": tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        default: throw CollectionStoreError.database("sslmode takes disable, prefer or require, not \(mode ?? "")")
        }
        let database = url.path.split(separator: "/").first.map(String.init)
        configuration = PostgresConnection.Configuration(
            host: host, port: url.port ?? 5432, username: url.user ?? "postgres", password: url.password,
            database: database, tls: tls)
        location = "postgres://\(url.user.map { $0 + "@" } ?? "")\(host):\(url.port ?? 5432)/\(database ?? "")"
        var logger = Logger(label: "swiftvision.collections.postgres")
        logger.logLevel = .critical
        self.logger = logger
        try session { try Self.migrate($0) }
    }

    deinit {
        if let open = connection.withLock({ $0.take() }) { try? open.close().wait() }
    }

    // MARK: The schema

    /// Makes or moves forward the schema, under a lock that replicas starting together share.
    private static func migrate(_ session: Session) throws {
        try session.transaction {
            try session.execute("SELECT pg_advisory_xact_lock(7263540)")
            try session.execute("CREATE SCHEMA IF NOT EXISTS swiftvision")
            try session.execute("CREATE TABLE IF NOT EXISTS swiftvision.schema_version (version integer NOT NULL)")
            let version = try session.rows("SELECT coalesce(max(version), 0) FROM swiftvision.schema_version")
                .first?.decode(Int.self) ?? 0
            var statements: [String] = []
            if version < 1 { statements += firstSchema }
            if version < 2 { statements += secondSchema }
            for statement in statements {
                try session.execute(PostgresQuery(unsafeSQL: statement))
            }
        }
    }

    /// Schema version 1: the SQLite store's first schema.
    private static let firstSchema = [
        """
        CREATE TABLE swiftvision.collection (
            id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, created_at timestamptz NOT NULL)
        """,
        """
        CREATE TABLE swiftvision.item (
            id bigserial PRIMARY KEY,
            collection_id bigint NOT NULL REFERENCES swiftvision.collection(id) ON DELETE CASCADE,
            content_hash text NOT NULL, source text NOT NULL, timestamp_ms bigint,
            width integer NOT NULL, height integer NOT NULL, orientation integer NOT NULL,
            face_count integer, added_at timestamptz NOT NULL, words tsvector)
        """,
        "CREATE UNIQUE INDEX item_content ON swiftvision.item (collection_id, content_hash, coalesce(timestamp_ms, -1))",
        "CREATE INDEX item_faces ON swiftvision.item (collection_id, face_count)",
        "CREATE INDEX item_words ON swiftvision.item USING gin (words)",
        """
        CREATE TABLE swiftvision.analysis (
            item_id bigint NOT NULL REFERENCES swiftvision.item(id) ON DELETE CASCADE,
            task text NOT NULL, json text NOT NULL, PRIMARY KEY (item_id, task))
        """,
        """
        CREATE TABLE swiftvision.label (
            item_id bigint NOT NULL REFERENCES swiftvision.item(id) ON DELETE CASCADE,
            name text NOT NULL, task text NOT NULL, confidence real NOT NULL, PRIMARY KEY (item_id, task, name))
        """,
        "CREATE INDEX label_name ON swiftvision.label (name, item_id)",
        """
        CREATE TABLE swiftvision.barcode (
            item_id bigint NOT NULL REFERENCES swiftvision.item(id) ON DELETE CASCADE,
            format text NOT NULL, value text NOT NULL)
        """,
        "CREATE INDEX barcode_value ON swiftvision.barcode (value, item_id)",
        """
        CREATE TABLE swiftvision.embedding (
            item_id bigint PRIMARY KEY REFERENCES swiftvision.item(id) ON DELETE CASCADE,
            vector bytea NOT NULL, quantized bytea NOT NULL)
        """,
        """
        CREATE TABLE swiftvision.failure (
            collection_id bigint NOT NULL REFERENCES swiftvision.collection(id) ON DELETE CASCADE,
            source text NOT NULL, message text NOT NULL, failed_at timestamptz NOT NULL,
            PRIMARY KEY (collection_id, source))
        """,
        "INSERT INTO swiftvision.schema_version (version) VALUES (1)",
    ]

    /// Schema version 2: a revision that every addition and removal moves on, and each item's thumbnail.
    private static let secondSchema = [
        "ALTER TABLE swiftvision.collection ADD COLUMN revision bigint NOT NULL DEFAULT 0",
        """
        CREATE TABLE swiftvision.thumbnail (
            item_id bigint PRIMARY KEY REFERENCES swiftvision.item(id) ON DELETE CASCADE, jpeg bytea NOT NULL)
        """,
        "INSERT INTO swiftvision.schema_version (version) VALUES (2)",
    ]

    // MARK: CollectionStore

    public func collections() throws -> [CollectionSummary] {
        try session { session in
            try session.rows(
                """
                SELECT name, created_at,
                    (SELECT count(*) FROM swiftvision.item WHERE collection_id = c.id),
                    (SELECT count(*) FROM swiftvision.failure WHERE collection_id = c.id)
                FROM swiftvision.collection c ORDER BY name
                """
            ).map { row in
                let (name, createdAt, items, failures) = try row.decode((String, Date, Int, Int).self)
                return CollectionSummary(name: name, items: items, failures: failures, createdAt: createdAt)
            }
        }
    }

    public func makeCollection(named name: String) throws -> Bool {
        try CollectionStoreError.check(name: name)
        return try session { session in
            try !session.rows(
                "INSERT INTO swiftvision.collection (name, created_at) VALUES (\(name), \(Date())) ON CONFLICT (name) DO NOTHING RETURNING id"
            ).isEmpty
        }
    }

    public func contains(contentHash: String, timestampMs: Int?, in collection: String) throws -> Bool {
        try session { session in
            guard let collectionId = try Self.collectionId(session, collection) else { return false }
            return try Self.itemId(session, collectionId: collectionId, contentHash: contentHash, timestampMs: timestampMs) != nil
        }
    }

    public func add(_ record: ItemRecord, to collection: String) throws -> AddOutcome {
        let encoded = try EncodedAnalysis(record.analysis)
        return try session { session in
            try session.transaction {
                let collectionId = try Self.makeCollection(session, collection)
                let inserted = try session.rows(
                    """
                    INSERT INTO swiftvision.item
                        (collection_id, content_hash, source, timestamp_ms, width, height, orientation, face_count, added_at, words)
                    VALUES (\(collectionId), \(record.contentHash), \(record.source), \(record.timestampMs.map(Int64.init)),
                        \(record.width), \(record.height), \(record.orientation), \(record.analysis.faces?.faces.count),
                        \(Date()), to_tsvector('simple', \(record.analysis.text?.text ?? "")))
                    ON CONFLICT (collection_id, content_hash, coalesce(timestamp_ms, -1)) DO NOTHING
                    RETURNING id
                    """)
                guard let id = try inserted.first?.decode(Int64.self) else {
                    let existing = try Self.itemId(
                        session, collectionId: collectionId, contentHash: record.contentHash, timestampMs: record.timestampMs)
                    return .alreadyIndexed(existing ?? 0)
                }
                for (task, json) in encoded.outputs {
                    try session.execute("INSERT INTO swiftvision.analysis (item_id, task, json) VALUES (\(id), \(task), \(json))")
                }
                for label in encoded.labels {
                    try session.execute(
                        """
                        INSERT INTO swiftvision.label (item_id, name, task, confidence)
                        VALUES (\(id), \(label.name), \(label.task), \(label.confidence))
                        """)
                }
                for barcode in record.analysis.barcodes?.barcodes ?? [] {
                    try session.execute(
                        """
                        INSERT INTO swiftvision.barcode (item_id, format, value)
                        VALUES (\(id), \(barcode.format.description), \(barcode.rawValue))
                        """)
                }
                if let vector = encoded.vector, let quantized = encoded.quantized {
                    try session.execute(
                        "INSERT INTO swiftvision.embedding (item_id, vector, quantized) VALUES (\(id), \(vector), \(quantized))")
                }
                if let thumbnail = record.thumbnail {
                    try session.execute("INSERT INTO swiftvision.thumbnail (item_id, jpeg) VALUES (\(id), \(thumbnail))")
                }
                try session.execute("UPDATE swiftvision.collection SET revision = revision + 1 WHERE id = \(collectionId)")
                try session.execute(
                    "DELETE FROM swiftvision.failure WHERE collection_id = \(collectionId) AND source = \(record.source)")
                return .added(id)
            }
        }
    }

    public func recordFailure(source: String, message: String, in collection: String) throws {
        try session { session in
            try session.transaction {
                let collectionId = try Self.makeCollection(session, collection)
                try session.execute(
                    """
                    INSERT INTO swiftvision.failure (collection_id, source, message, failed_at)
                    VALUES (\(collectionId), \(source), \(message), \(Date()))
                    ON CONFLICT (collection_id, source) DO UPDATE SET message = excluded.message, failed_at = excluded.failed_at
                    """)
            }
        }
    }

    public func failures(in collection: String) throws -> [IndexFailure] {
        try session { session in
            let collectionId = try Self.existingCollectionId(session, collection)
            return try session.rows(
                """
                SELECT source, message, failed_at FROM swiftvision.failure
                WHERE collection_id = \(collectionId) ORDER BY failed_at, source
                """
            ).map { row in
                let (source, message, failedAt) = try row.decode((String, String, Date).self)
                return IndexFailure(source: source, message: message, failedAt: failedAt)
            }
        }
    }

    public func item(id: Int64, in collection: String) throws -> CollectionItem? {
        try session { session in
            let collectionId = try Self.existingCollectionId(session, collection)
            return try session.rows(
                "SELECT \(unescaped: Self.itemColumns) FROM swiftvision.item WHERE id = \(id) AND collection_id = \(collectionId)"
            ).first.map(Self.item)
        }
    }

    public func thumbnail(ofItem id: Int64, in collection: String) throws -> Data? {
        try session { session in
            let collectionId = try Self.existingCollectionId(session, collection)
            return try session.rows(
                """
                SELECT t.jpeg FROM swiftvision.thumbnail t JOIN swiftvision.item i ON i.id = t.item_id
                WHERE i.id = \(id) AND i.collection_id = \(collectionId)
                """
            ).first?.decode(Data.self)
        }
    }

    public func removeItem(id: Int64, from collection: String) throws -> Bool {
        try session { session in
            try session.transaction {
                let collectionId = try Self.existingCollectionId(session, collection)
                let removed = try session.rows(
                    "DELETE FROM swiftvision.item WHERE id = \(id) AND collection_id = \(collectionId) RETURNING id")
                guard !removed.isEmpty else { return false }
                try session.execute("UPDATE swiftvision.collection SET revision = revision + 1 WHERE id = \(collectionId)")
                return true
            }
        }
    }

    public func embedding(ofItem id: Int64) throws -> [Float]? {
        try session { session in
            try session.rows("SELECT vector FROM swiftvision.embedding WHERE item_id = \(id)").first
                .map { BlobCoding.floats(try $0.decode(Data.self)) }
        }
    }

    public func search(_ query: CollectionQuery, in collection: String) throws -> [SearchHit] {
        guard query.limit > 0 else { return [] }
        let (collectionId, candidates) = try session { session in
            let collectionId = try Self.existingCollectionId(session, collection)
            var filter = Filter(collectionId: collectionId, query: query)
            // Without ranking, the first `limit` matches in order; with it, every match is a candidate.
            if query.vector == nil { filter.sql += " LIMIT \(query.limit)" }
            return (
                collectionId,
                try session.rows(PostgresQuery(unsafeSQL: "SELECT id FROM swiftvision.item WHERE " + filter.sql, binds: filter.binds))
                    .map { try $0.decode(Int64.self) }
            )
        }
        return try hits(of: query, candidates: candidates, vectors: { try cachedVectors(collectionId: collectionId) }, items: items)
    }

    public func duplicateGroups(in collection: String, threshold: Float) throws -> [[CollectionItem]] {
        let collectionId = try session { try Self.existingCollectionId($0, collection) }
        return try itemGroups(try cachedVectors(collectionId: collectionId).duplicateGroups(threshold: threshold), items: items)
    }

    public func forEachItem(in collection: String, _ body: (ExportedItem) throws -> Void) throws {
        let collectionId = try session { try Self.existingCollectionId($0, collection) }
        var after: Int64 = 0
        // A page at a time, so that a large collection is never held in memory at once.
        while true {
            let page: [ExportedItem] = try session { session in
                let items = try session.rows(
                    """
                    SELECT \(unescaped: Self.itemColumns) FROM swiftvision.item
                    WHERE collection_id = \(collectionId) AND id > \(after) ORDER BY id LIMIT 200
                    """
                ).map(Self.item)
                let ids = items.map(\.id)
                var analyses: [Int64: [String: Data]] = [:]
                for row in try session.rows("SELECT item_id, task, json FROM swiftvision.analysis WHERE item_id = ANY(\(ids))") {
                    let (id, task, json) = try row.decode((Int64, String, String).self)
                    analyses[id, default: [:]][task] = Data(json.utf8)
                }
                for row in try session.rows("SELECT item_id, vector FROM swiftvision.embedding WHERE item_id = ANY(\(ids))") {
                    let (id, vector) = try row.decode((Int64, Data).self)
                    let output = EmbeddingsTask.Output(embeddings: [Embedding(floatEmbedding: BlobCoding.floats(vector))])
                    analyses[id, default: [:]][EmbeddingsTask.descriptor.name] = try EncodedAnalysis.encoder.encode(output)
                }
                return items.map { ExportedItem(item: $0, analyses: analyses[$0.id] ?? [:]) }
            }
            guard let last = page.last else { return }
            for item in page { try body(item) }
            after = last.item.id
        }
    }

    // MARK: Reading

    /// The items with `ids`, in id order.
    private func items(_ ids: [Int64]) throws -> [CollectionItem] {
        guard !ids.isEmpty else { return [] }
        return try session { session in
            try session.rows(
                "SELECT \(unescaped: Self.itemColumns) FROM swiftvision.item WHERE id = ANY(\(ids)) ORDER BY id"
            ).map(Self.item)
        }
    }

    /// The collection's embeddings, loaded again only when the server holds another version of them.
    private func cachedVectors(collectionId: Int64) throws -> CollectionVectors {
        try session { session in
            let version = try session.rows("SELECT revision FROM swiftvision.collection WHERE id = \(collectionId)").first?
                .decode(Int64.self) ?? 0
            return try vectorCache.vectors(ofCollection: collectionId, at: version) {
                try CollectionVectors(version: version) { add in
                    for row in try session.rows(
                        """
                        SELECT e.item_id, e.vector FROM swiftvision.embedding e
                        JOIN swiftvision.item i ON i.id = e.item_id WHERE i.collection_id = \(collectionId) ORDER BY e.item_id
                        """)
                    {
                        let (id, vector) = try row.decode((Int64, Data).self)
                        add(id, BlobCoding.floats(vector))
                    }
                }
            }
        }
    }

    private static let itemColumns = "id, content_hash, source, timestamp_ms, width, height, orientation, added_at"

    private static func item(_ row: PostgresRow) throws -> CollectionItem {
        let (id, contentHash, source, timestampMs, width, height, orientation, addedAt) = try row.decode(
            (Int64, String, String, Int?, Int, Int, Int, Date).self)
        return CollectionItem(
            id: id, contentHash: contentHash, source: source, timestampMs: timestampMs, width: width, height: height,
            orientation: orientation, addedAt: addedAt)
    }

    private static func collectionId(_ session: Session, _ name: String) throws -> Int64? {
        try session.rows("SELECT id FROM swiftvision.collection WHERE name = \(name)").first?.decode(Int64.self)
    }

    private static func existingCollectionId(_ session: Session, _ name: String) throws -> Int64 {
        guard let id = try collectionId(session, name) else { throw CollectionStoreError.unknownCollection(name) }
        return id
    }

    private static func makeCollection(_ session: Session, _ name: String) throws -> Int64 {
        try CollectionStoreError.check(name: name)
        try session.execute(
            "INSERT INTO swiftvision.collection (name, created_at) VALUES (\(name), \(Date())) ON CONFLICT (name) DO NOTHING")
        return try existingCollectionId(session, name)
    }

    private static func itemId(_ session: Session, collectionId: Int64, contentHash: String, timestampMs: Int?) throws -> Int64? {
        try session.rows(
            """
            SELECT id FROM swiftvision.item WHERE collection_id = \(collectionId) AND content_hash = \(contentHash)
                AND coalesce(timestamp_ms, -1) = \(Int64(timestampMs ?? -1))
            """
        ).first?.decode(Int64.self)
    }

    /// The `WHERE` clause of a query's filters, with its binds.
    private struct Filter {
        var sql: String
        var binds = PostgresBindings()

        init(collectionId: Int64, query: CollectionQuery) {
            sql = ""
            var clauses = ["collection_id = \(bind(collectionId))"]
            for (label, negated) in query.labels.map({ ($0, "") }) + query.excludedLabels.map({ ($0, "NOT ") }) {
                clauses.append(
                    """
                    \(negated)EXISTS (SELECT 1 FROM swiftvision.label l WHERE l.item_id = item.id AND l.name = lower(\(bind(label)))
                        AND l.confidence >= \(bind(CollectionQuery.labelConfidence)))
                    """)
            }
            if let text = query.text {
                // Every word required, none read as query syntax, as the SQLite store's FTS5 expression.
                clauses.append("words @@ plainto_tsquery('simple', \(bind(text)))")
            }
            if let faces = query.faceCount {
                clauses.append("face_count BETWEEN \(bind(Int64(faces.lowerBound))) AND \(bind(Int64(min(faces.upperBound, Int(Int32.max)))))")
            }
            if let barcode = query.barcode {
                clauses.append("EXISTS (SELECT 1 FROM swiftvision.barcode b WHERE b.item_id = item.id AND b.value = \(bind(barcode)))")
            }
            sql = clauses.joined(separator: " AND ") + " ORDER BY id"
        }

        private mutating func bind<Value: PostgresNonThrowingEncodable>(_ value: Value) -> String {
            binds.append(value)
            return "$\(binds.count)"
        }
    }

    // MARK: The connection

    /// One connection's calls, in order.
    private struct Session {
        let connection: PostgresConnection
        let logger: Logger

        func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
            do {
                return try connection.query(query, logger: logger).wait().rows
            } catch let error as PSQLError {
                throw CollectionStoreError.database(PostgreSQLCollectionStore.message(error))
            }
        }

        func execute(_ query: PostgresQuery) throws {
            _ = try rows(query)
        }

        /// Runs `body` in a transaction, rolled back when it throws.
        func transaction<Result>(_ body: () throws -> Result) throws -> Result {
            try execute("BEGIN")
            do {
                let result = try body()
                try execute("COMMIT")
                return result
            } catch {
                try? execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Runs `body` on the store's connection, one call at a time, connecting again when the server closed it.
    private func session<Result>(_ body: (Session) throws -> Result) throws -> Result {
        try connection.withLock { held in
            if held == nil || held?.isClosed == true {
                do {
                    held = try PostgresConnection.connect(
                        on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration,
                        id: connections.add(1, ordering: .relaxed).newValue, logger: logger
                    ).wait()
                } catch let error as PSQLError {
                    throw CollectionStoreError.database("cannot reach \(location): \(Self.message(error))")
                } catch {
                    throw CollectionStoreError.database("cannot reach \(location): \(error)")
                }
            }
            return try body(Session(connection: held!, logger: logger))
        }
    }

    /// The server's message for `error`, or what failed on the way to it.
    static func message(_ error: PSQLError) -> String {
        if let message = error.serverInfo?[.message] {
            return message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
        }
        return error.underlying.map { "\($0)" } ?? "\(error.code)"
    }
}
