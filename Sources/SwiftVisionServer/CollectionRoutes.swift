import Foundation
import Hummingbird
import NIOCore
import SwiftVision
import SwiftVisionCollections
import Synchronization

/// Collections over HTTP (docs/collections.md): `GET /v1/collections`, `POST /v1/collections` (an empty one,
/// `{"name"}`), `POST /v1/collections/{c}/items`
/// (one image, analysed by `?tasks=` — labels, objects, faces and embeddings by default — and stored),
/// with `?source=` naming it, `GET`/`DELETE /v1/collections/{c}/items/{id}`, `GET …/items/{id}/thumbnail` (a
/// JPEG), `POST /v1/collections/{c}/search` (an image to search with, or
/// a JSON query: `item`, `labels`, `noLabels`, `text`, `faces`, `barcode`, `k`) and
/// `GET /v1/collections/{c}/duplicates?threshold=`. They take the service's token, admission, deadline
/// and image limits; the store's work runs inside the limiter, off the connection threads.
enum CollectionRoutes {
    static func add(
        to group: RouterGroup<ServiceRequestContext>, store: CollectionStoreOpener, limiter: RequestLimiter,
        configuration: ServerConfiguration
    ) {
        /// Runs `work` admitted and within the request's deadline, answering its JSON.
        @Sendable func admitted(
            _ context: ServiceRequestContext, task: String, _ work: @escaping @Sendable () throws -> Data
        ) async -> Response {
            await VisionService.instrumented(task: task) {
                let admission = try limiter.admit(within: configuration.requestTimeout, client: context.client)
                return VisionService.json(try await admission.run(closing: context.channel, work))
            }
        }

        group.get("v1/collections") { _, context in
            await admitted(context, task: "collections") { try encode(try store.opened().collections()) }
        }
        group.post("v1/collections") { request, context in
            await VisionService.instrumented(task: "collections") {
                let body = try await VisionService.body(of: request, upTo: 4096, on: context.channel)
                guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any], object.count == 1,
                    let name = object["name"] as? String
                else { throw APIError.badOption("make a collection with {\"name\": \"…\"}") }
                let admission = try limiter.admit(within: configuration.requestTimeout, client: context.client)
                let answer = try await admission.run(closing: context.channel) { () throws -> Data? in
                    let opened = try store.opened()
                    guard try opened.makeCollection(named: name) else { return nil }
                    return try encode(try opened.collections().first { $0.name == name })
                }
                guard let answer else {
                    throw APIError(.conflict, "collection_exists", "a collection named \(name.prefix(200)) exists already")
                }
                var response = VisionService.json(answer)
                response.status = .created
                response.headers[.location] = "/v1/collections/\(name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? "")"
                return response
            }
        }
        group.post("v1/collections/:collection/items") { request, context in
            let name = collectionName(context)
            return await VisionService.instrumented(task: "collections") {
                let names = request.uri.queryParameters.get("tasks").map { String($0) } ?? "labels,objects,faces,embeddings"
                guard let tasks = IndexedTask.list(names) else {
                    throw APIError.badOption("tasks takes a comma-separated list of labels, objects, faces, text, barcodes, embeddings")
                }
                let source = request.uri.queryParameters.get("source").map { String($0) } ?? "upload"
                guard (1...500).contains(source.count), !source.contains(where: { $0.isNewline || $0 == "\0" }) else {
                    throw APIError.badOption("source takes a name of 1 to 500 characters on one line")
                }
                let admission = try limiter.admit(within: configuration.requestTimeout, client: context.client)
                let file = try await VisionService.upload(request, images: 1, configuration: configuration, on: context.channel)[0]
                let contentHash = CollectionIndexer.contentHash(of: file.data)
                let (answer, timings) = try await admission.staged(decoding: [file], closing: context.channel) { images -> (Bool, CollectionItem?) in
                    let analysis = try ItemAnalyzer(tasks: tasks).analysis(of: images[0])
                    let record = ItemRecord(contentHash: contentHash, source: source, timestampMs: nil, image: images[0], analysis: analysis)
                    let (id, added): (Int64, Bool) =
                        switch try store.opened().add(record, to: name) {
                        case .added(let id): (id, true)
                        case .alreadyIndexed(let id): (id, false)
                        }
                    ServerMetrics.recordCollectionItem(added: added)
                    return (added, try store.opened().item(id: id, in: name))
                } encode: { (added: Bool, item: CollectionItem?) in
                    try JSONSerialization.data(withJSONObject: ["added": added, "item": try jsonObject(item)], options: [.sortedKeys])
                }
                var response = VisionService.json(answer).timed(timings, task: "collections")
                response.status = .created
                return response
            }
        }
        group.get("v1/collections/:collection/items/:id") { _, context in
            let name = collectionName(context)
            guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else {
                return APIError(.badRequest, "bad_item", "an item id is a whole number").response
            }
            return await admitted(context, task: "collections") {
                guard let item = try store.opened().item(id: id, in: name) else { throw CollectionStoreError.unknownItem(id, collection: name) }
                return try encode(item)
            }
        }
        group.get("v1/collections/:collection/items/:id/thumbnail") { _, context in
            let name = collectionName(context)
            guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else {
                return APIError(.badRequest, "bad_item", "an item id is a whole number").response
            }
            var response = await admitted(context, task: "collections") {
                guard let jpeg = try store.opened().thumbnail(ofItem: id, in: name) else {
                    throw CollectionStoreError.unknownItem(id, collection: name)
                }
                return jpeg
            }
            if response.status == .ok {
                response.headers[.contentType] = "image/jpeg"
                response.headers[.cacheControl] = "private, max-age=86400"
            }
            return response
        }
        group.delete("v1/collections/:collection/items/:id") { _, context in
            let name = collectionName(context)
            guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else {
                return APIError(.badRequest, "bad_item", "an item id is a whole number").response
            }
            var response = await admitted(context, task: "collections") {
                guard try store.opened().removeItem(id: id, from: name) else { throw CollectionStoreError.unknownItem(id, collection: name) }
                return Data()
            }
            if response.status == .ok {
                response.status = .noContent
                response.headers[.contentType] = nil
            }
            return response
        }
        group.post("v1/collections/:collection/search") { request, context in
            let name = collectionName(context)
            return await VisionService.instrumented(task: "collections") {
                let admission = try limiter.admit(within: configuration.requestTimeout, client: context.client)
                let isJSON = request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true
                var query = CollectionQuery()
                var file: ImageUpload.File?
                if isJSON {
                    let body = try await VisionService.body(of: request, upTo: 64 * 1024, on: context.channel)
                    query = try searchQuery(Data(buffer: body), store: try store.opened(), collection: name)
                } else {
                    file = try await VisionService.upload(request, images: 1, configuration: configuration, on: context.channel)[0]
                    query.limit = try limit(request.uri.queryParameters.get("k").map { String($0) })
                    switch request.uri.queryParameters.get("approximate") {
                    case nil, "false": break
                    case "true": query.approximate = true
                    case let other?: throw APIError.badOption("approximate takes true or false, not \(other.prefix(32))")
                    }
                }
                let chosen = query
                let (hits, timings) = try await admission.staged(decoding: file.map { [$0] } ?? [], closing: context.channel) { images -> [SearchHit] in
                    var query = chosen
                    if let image = images.first {
                        query.vector = try ItemAnalyzer(tasks: [.embeddings]).embedding(of: image)
                    }
                    let started = ContinuousClock.now
                    let found = try store.opened().search(query, in: name)
                    ServerMetrics.recordCollectionSearch(
                        approximate: query.approximate, ranked: query.vector != nil, duration: ContinuousClock.now - started)
                    return found
                } encode: { (found: [SearchHit]) in
                    try JSONSerialization.data(
                        withJSONObject: ["hits": try found.map { hit -> [String: Any] in
                            var object: [String: Any] = ["item": try jsonObject(hit.item)]
                            if let score = hit.score { object["score"] = Double(score) }
                            return object
                        }], options: [.sortedKeys])
                }
                return VisionService.json(hits).timed(timings, task: "collections")
            }
        }
        group.get("v1/collections/:collection/duplicates") { request, context in
            let name = collectionName(context)
            let text = request.uri.queryParameters.get("threshold").map { String($0) } ?? "0.95"
            guard let threshold = Float(text), (0...1).contains(threshold) else {
                return APIError.badOption("threshold takes a number in 0…1, not \(text.prefix(32))").response
            }
            return await admitted(context, task: "collections") { try encode(try store.opened().duplicateGroups(in: name, threshold: threshold)) }
        }
    }

    /// A JSON search: `{"item": ID | "labels": [..] | "noLabels": [..] | "text": ".." | "faces": "2.." | "barcode": ".." | "k": N |
    /// "approximate": true}`.
    static func searchQuery(_ data: Data, store: any CollectionStore, collection: String) throws -> CollectionQuery {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw APIError.badOption("the search must be a JSON object")
        }
        let known: Set<String> = ["item", "labels", "noLabels", "text", "faces", "barcode", "k", "approximate"]
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw APIError.badOption("the search has no field \(unknown); its fields: \(known.sorted().joined(separator: ", "))")
        }
        var query = CollectionQuery()
        query.labels = try strings(object["labels"], "labels")
        query.excludedLabels = try strings(object["noLabels"], "noLabels")
        if let text = object["text"] {
            guard let text = text as? String, !text.isEmpty, text.count <= 200 else { throw APIError.badOption("text takes 1 to 200 characters") }
            query.text = text
        }
        if let faces = object["faces"] {
            guard let faces = faces as? String, let range = CollectionQuery.faceRange(faces) else {
                throw APIError.badOption("faces takes a count or a range such as 2, 2.., ..3 or 1..2")
            }
            query.faceCount = range
        }
        if let barcode = object["barcode"] {
            guard let barcode = barcode as? String, !barcode.isEmpty, barcode.count <= 4096 else {
                throw APIError.badOption("barcode takes the value to find")
            }
            query.barcode = barcode
        }
        query.limit = try limit(object["k"].map { "\($0)" })
        if let approximate = object["approximate"] {
            guard let approximate = approximate as? Bool else { throw APIError.badOption("approximate takes true or false") }
            query.approximate = approximate
        }
        if let item = object["item"] {
            guard let id = (item as? NSNumber).flatMap({ Int64(exactly: $0.doubleValue) }) else {
                throw APIError.badOption("item takes an item id")
            }
            guard let vector = try store.embedding(ofItem: id) else { throw CollectionStoreError.noEmbedding(id) }
            query.vector = vector
        }
        return query
    }

    static func strings(_ value: Any?, _ name: String) throws -> [String] {
        guard let value else { return [] }
        guard let list = value as? [String], list.count <= 50, list.allSatisfy({ !$0.isEmpty && $0.count <= 200 }) else {
            throw APIError.badOption("\(name) takes a list of at most 50 labels")
        }
        return list
    }

    /// The number of hits asked for: 1…1000, 10 when not given.
    static func limit(_ text: String?) throws -> Int {
        guard let text else { return 10 }
        guard let k = Int(text), (1...1000).contains(k) else { throw APIError.badOption("k takes a whole number in 1…1000, not \(text.prefix(32))") }
        return k
    }

    /// The collection a route's path names, percent-decoded (the router leaves `%20` as it came).
    static func collectionName(_ context: ServiceRequestContext) -> String {
        let raw = context.parameters.get("collection") ?? ""
        return raw.removingPercentEncoding ?? raw
    }

    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value)
    }

    static func jsonObject(_ item: CollectionItem?) throws -> Any {
        guard let item else { return NSNull() }
        return try JSONSerialization.jsonObject(with: try encode(item))
    }
}

/// The service's collection store, opened on the first request that needs it, so that a service whose
/// clients never use collections makes no database file.
final class CollectionStoreOpener: Sendable {
    private let location: CollectionStoreLocation
    private let store = Mutex<(any CollectionStore)?>(nil)

    init(location: CollectionStoreLocation) {
        self.location = location
    }

    /// The store, opened now if it was not.
    func opened() throws -> any CollectionStore {
        try store.withLock { store in
            if let store { return store }
            let opened = try location.open()
            store = opened
            return opened
        }
    }
}
