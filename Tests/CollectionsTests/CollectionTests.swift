import Foundation
import GRDB
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCollections

/// A collection of sample photos indexed with every task, once for the suite.
struct IndexedSamples: Sendable {
    /// The photos, and what they show (read off the photos by eye; the faces as `FaceTests.people` counts
    /// the faces turned to the camera: zidane.jpg 2, bus.jpg 2, facereg.jpg 4, astronaut.png 1; the others
    /// show at most one person).
    static let photos = [
        "bus.jpg",  // a bus and people
        "zidane.jpg",  // two men
        "facereg.jpg",  // four faces in a grid
        "astronaut.png",  // one woman
        "chelsea.png",  // a cat
        "cat_det.jpg",  // a cat
        "dog.jpg",  // a dog, a bicycle, a truck
        "chicky_512.png",  // a dog's head
        "person.jpg",  // a woman, a dog and a horse
        "page.png",  // a scanned page on segmentation ("markers of the coins")
        "pyzbar-qrcode.png",  // a QR code reading "Thalassiodracon"
        "coffee.png",  // a cup of coffee
    ]
    /// bus.jpg at three quarters of its size, saved again as JPEG quality 80 by the project's own image
    /// code; its two faces stay large enough to be found.
    static let busCopy = "bus-small.jpg"

    let folder: URL
    let store: SQLiteCollectionStore
    /// Each file's item id, by name.
    let ids: [String: Int64]
    let firstRun: IndexProgress
    let secondRun: IndexProgress
    let failures: [IndexFailure]

    static let shared = Result { try IndexedSamples() }

    private init() throws {
        // One folder, emptied at each run: a static value is never torn down, so the last run's stays until the next.
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-collection-tests")
        try? FileManager.default.removeItem(at: folder)
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in Self.photos {
            try FileManager.default.copyItem(at: try Self.sample(name), to: photos.appendingPathComponent(name))
        }
        let bus = try VisionImage(contentsOf: try Self.sample("bus.jpg"))
        try bus.resized(width: bus.width * 3 / 4, height: bus.height * 3 / 4).encoded(as: .jpeg(quality: 80))
            .write(to: photos.appendingPathComponent(Self.busCopy))
        // A PNG cut in half, in a subfolder: found at any depth, recorded as a failure, the rest indexed.
        let broken = photos.appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        let png = try Data(contentsOf: try Self.sample("chelsea.png"))
        try png.prefix(png.count / 2).write(to: broken.appendingPathComponent("cut.png"))

        store = try SQLiteCollectionStore(url: folder.appendingPathComponent("collections.sqlite"))
        let indexer = CollectionIndexer(
            store: store, collection: "samples", analyzer: try ItemAnalyzer(tasks: IndexedTask.allCases), videoExtensions: ["mp4"],
            parallelItems: 2)
        let sources = indexer.sources(for: [photos.path])
        firstRun = indexer.index(sources)
        secondRun = indexer.index(sources)
        var ids: [String: Int64] = [:]
        try store.forEachItem(in: "samples") { ids[URL(fileURLWithPath: $0.item.source).lastPathComponent] = $0.item.id }
        self.ids = ids
        failures = try store.failures(in: "samples")
    }

    static func sample(_ name: String) throws -> URL {
        let url = SwiftVisionCache.current.sample(named: name)
        try #require(FileManager.default.fileExists(atPath: url.path), "missing \(url.path): run `make test`")
        return url
    }

    /// The names of the files of `hits`, as a set.
    func names(_ hits: [SearchHit]) -> Set<String> {
        Set(hits.map { URL(fileURLWithPath: $0.item.source).lastPathComponent })
    }

    /// The file names of the items matching `query` (up to 100).
    func names(matching query: (inout CollectionQuery) -> Void) throws -> Set<String> {
        var built = CollectionQuery()
        built.limit = 100
        query(&built)
        return names(try store.search(built, in: "samples"))
    }
}

@Suite struct CollectionTests {
    func indexed() throws -> IndexedSamples { try IndexedSamples.shared.get() }

    @Test func everyPhotoIsIndexedOnceAndTheCutFileIsAFailure() throws {
        let samples = try indexed()
        #expect(samples.firstRun.total == IndexedSamples.photos.count + 2)
        #expect(samples.firstRun.added == IndexedSamples.photos.count + 1)
        #expect(samples.firstRun.failed == 1)
        #expect(Set(samples.ids.keys) == Set(IndexedSamples.photos + [IndexedSamples.busCopy]))
        #expect(samples.failures.map { URL(fileURLWithPath: $0.source).lastPathComponent } == ["cut.png"])
        // Adding the same files again finds every one by its content hash.
        #expect(samples.secondRun.added == 0 && samples.secondRun.skipped == IndexedSamples.photos.count + 1)
        #expect(try samples.store.collections().map(\.items) == [IndexedSamples.photos.count + 1])
    }

    @Test func aPhotoFindsItselfFirstAndItsSmallerCopyNext() throws {
        let samples = try indexed()
        var query = CollectionQuery()
        query.vector = try ItemAnalyzer(tasks: [.embeddings]).embedding(of: VisionImage(contentsOf: try IndexedSamples.sample("bus.jpg")))
        query.limit = 3
        let hits = try samples.store.search(query, in: "samples")
        #expect(hits.map(\.item.id) == [samples.ids["bus.jpg"], samples.ids[IndexedSamples.busCopy], hits[2].item.id])
        #expect(abs((hits[0].score ?? 0) - 1) < 1e-4)
        #expect((hits[1].score ?? 0) > 0.95 && (hits[2].score ?? 1) < 0.9, "\(hits.map(\.score))")
        // The same by item: the photo's stored embedding.
        query.vector = try samples.store.embedding(ofItem: try #require(samples.ids["zidane.jpg"]))
        #expect(try samples.store.search(query, in: "samples").first?.item.id == samples.ids["zidane.jpg"])
    }

    /// Each photo searched for by its own stored embedding, exactly and with the int8 first pass, scores
    /// 1 at most: a cosine similarity is −1…1 (docs/collections.md), though the float sums round above it.
    @Test func aPhotoSearchedForItselfScoresOneAtMost() throws {
        let samples = try indexed()
        for (name, id) in samples.ids.sorted(by: { $0.key < $1.key }) {
            for approximately in [false, true] {
                var query = CollectionQuery()
                query.vector = try samples.store.embedding(ofItem: id)
                query.approximate = approximately
                query.limit = 1
                let score = try #require(try samples.store.search(query, in: "samples").first?.score)
                #expect(score <= 1 && score > 1 - 1e-5, "\(name), approximate: \(approximately): \(score)")
            }
        }
    }

    @Test func duplicatesGroupTheCopyWithItsPhotoOnly() throws {
        let samples = try indexed()
        let groups = try samples.store.duplicateGroups(in: "samples", threshold: 0.95)
        #expect(groups.map { Set($0.map { URL(fileURLWithPath: $0.source).lastPathComponent }) } == [["bus.jpg", IndexedSamples.busCopy]])
    }

    @Test func labelFiltersReturnThePhotosThatShowIt() throws {
        let samples = try indexed()
        #expect(try samples.names { $0.labels = ["cat"] } == ["chelsea.png", "cat_det.jpg"])
        #expect(try samples.names { $0.labels = ["Dog"] } == ["dog.jpg", "chicky_512.png", "person.jpg"])
        #expect(try samples.names { $0.labels = ["dog"]; $0.excludedLabels = ["person"] } == ["dog.jpg", "chicky_512.png"])
        #expect(try samples.names { $0.labels = ["bus"] } == ["bus.jpg", IndexedSamples.busCopy])
        #expect(try samples.names { $0.labels = ["unicorn"] }.isEmpty)
    }

    @Test func faceTextAndBarcodeFiltersReturnExactlyTheirPhotos() throws {
        let samples = try indexed()
        let twoOrMore = try samples.names { $0.faceCount = CollectionQuery.faceRange("2..") }
        #expect(twoOrMore == ["zidane.jpg", "bus.jpg", "facereg.jpg", IndexedSamples.busCopy], "\(twoOrMore)")
        #expect(try samples.names { $0.faceCount = CollectionQuery.faceRange("4") } == ["facereg.jpg"])
        #expect(try samples.names { $0.text = "coins" } == ["page.png"])
        #expect(try samples.names { $0.text = "markers \"coins" } == ["page.png"])
        #expect(try samples.names { $0.text = "Thalassiodracon" }.isEmpty)
        #expect(try samples.names { $0.barcode = "Thalassiodracon" } == ["pyzbar-qrcode.png"])
    }

    @Test func filtersComeBeforeSimilarity() throws {
        let samples = try indexed()
        var query = CollectionQuery()
        query.vector = try samples.store.embedding(ofItem: try #require(samples.ids["bus.jpg"]))
        query.excludedLabels = ["bus"]
        query.limit = 100
        let hits = try samples.store.search(query, in: "samples")
        #expect(!samples.names(hits).contains("bus.jpg") && hits.count == IndexedSamples.photos.count - 1)
        #expect(zip(hits, hits.dropFirst()).allSatisfy { ($0.score ?? 0) >= ($1.score ?? 0) })
    }

    @Test func theStoredJSONIsEachCommandsOwn() throws {
        let samples = try indexed()
        var exported: [String: Data] = [:]
        try samples.store.forEachItem(in: "samples") { if $0.item.id == samples.ids["zidane.jpg"] { exported = $0.analyses } }
        #expect(Set(exported.keys) == Set(IndexedTask.allCases.map(\.rawValue)))
        // The faces command's --json line but "file": the same encoder (sorted keys) over the same output.
        let direct = try FacesTask().output(for: VisionImage(contentsOf: try IndexedSamples.sample("zidane.jpg")))
        #expect(exported["faces"] == (try EncodedAnalysis.encoder.encode(direct)))
        let embedding = try JSONDecoder().decode(EmbeddingsTask.Output.self, from: try #require(exported["embeddings"]))
        #expect(embedding.embeddings.first?.floatEmbedding == (try samples.store.embedding(ofItem: try #require(samples.ids["zidane.jpg"]))))
    }

    /// Stores opening one new file at the same moment (as two `index add` runs started together) all open
    /// it: SQLite answers the switch to WAL with "database is locked" at once, without waiting on the busy
    /// timeout, and two migrators would both create the tables; 20 rounds of 6 openers each.
    @Test func storesOpeningOneNewFileTogetherAllOpenIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-first-open-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for round in 0..<20 {
            let url = folder.appendingPathComponent("\(round).sqlite")
            let failures = NSLock()
            nonisolated(unsafe) var errors: [String] = []
            let group = DispatchGroup()
            for _ in 0..<6 {
                group.enter()
                Thread {
                    do {
                        _ = try SQLiteCollectionStore(url: url).collections()
                    } catch {
                        failures.withLock { errors.append("\(error)") }
                    }
                    group.leave()
                }.start()
            }
            group.wait()
            #expect(errors == [], "round \(round)")
        }
    }

    @Test func anOnlineBackupHoldsTheSameCollection() throws {
        let samples = try indexed()
        let copy = samples.folder.appendingPathComponent("backup-\(UUID().uuidString).sqlite")
        try samples.store.backup(to: copy)
        let restored = try SQLiteCollectionStore(url: copy)
        #expect(try restored.collections() == (try samples.store.collections()))
        var query = CollectionQuery()
        query.labels = ["cat"]
        #expect(try restored.search(query, in: "samples") == (try samples.store.search(query, in: "samples")))
    }

    @Test func theInt8BlobIsMediaPipesQuantizationOfTheFloats() throws {
        let samples = try indexed()
        let id = try #require(samples.ids["chelsea.png"])
        let vector = try #require(try samples.store.embedding(ofItem: id))
        let quantized = try DatabaseQueue(path: samples.store.url.path).read { db in
            try Data.fetchOne(db, sql: "SELECT quantized FROM embedding WHERE itemId = ?", arguments: [id])
        }
        let expected = Embedding(values: vector, l2Normalize: false, quantize: true, headIndex: 0, headName: nil).quantizedEmbedding
        #expect(quantized.map { $0.map { Int8(bitPattern: $0) } } == expected && expected?.count == 1280)
        // MediaPipe's TensorsToEmbeddingsCalculator: round(value × 128), clamped to −128…127.
        #expect(zip(vector, expected ?? []).allSatisfy { Int8(max(-128, min(127, ($0 * 128).rounded()))) == $1 })
    }

    @Test func faceRangesParse() {
        #expect(CollectionQuery.faceRange("2..") == 2...Int.max)
        #expect(CollectionQuery.faceRange("..3") == 0...3)
        #expect(CollectionQuery.faceRange("1..2") == 1...2)
        #expect(CollectionQuery.faceRange("0") == 0...0)
        for bad in ["", "..", "3..1", "-1", "a", "1...2", "1..b"] { #expect(CollectionQuery.faceRange(bad) == nil, "\(bad)") }
    }

    @Test func unknownCollectionsAndItemsAreClearErrors() throws {
        let samples = try indexed()
        #expect(throws: CollectionStoreError.unknownCollection("nope")) { try samples.store.search(CollectionQuery(), in: "nope") }
        var query = CollectionQuery()
        query.vector = [1, 2, 3]
        #expect(throws: CollectionStoreError.dimensionMismatch(query: 3, stored: 1280)) { try samples.store.search(query, in: "samples") }
        query.vector = [0, 0, 0]
        #expect(throws: CollectionStoreError.zeroVector) { try samples.store.search(query, in: "samples") }
    }
}
