import Foundation
import Synchronization

/// A collection's embeddings in one matrix, with the item id of each row: what both stores search, exactly.
final class CollectionVectors: Sendable {
    /// The collection's revision when they were loaded: it counts the items added to and removed from it.
    typealias Version = Int64

    let version: Version
    let matrix: VectorMatrix
    let ids: [Int64]
    let rows: [Int64: Int]
    /// The int8 copy that approximate searches read, made by the first of them.
    private let quantized = Mutex<QuantizedMatrix?>(nil)

    /// The vectors that `load` hands over (item id and unit vector, in id order). Every vector of a collection
    /// comes from one embedder; one whose length differs from the first is left out of search.
    init(version: Version, load: (_ add: (Int64, [Float]) -> Void) throws -> Void) rethrows {
        self.version = version
        var matrix: VectorMatrix?
        var ids: [Int64] = []
        try load { id, vector in
            if matrix == nil { matrix = VectorMatrix(dimension: vector.count) }
            guard vector.count == matrix?.dimension else { return }
            matrix?.append(vector)
            ids.append(id)
        }
        self.matrix = matrix ?? VectorMatrix(dimension: 0)
        self.ids = ids
        rows = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
    }

    /// The `limit` items most similar to `vector` (any length but zero), among `candidates` when given, best first;
    /// found exactly, or with an int8 first pass when `approximately`.
    func nearest(
        to vector: [Float], limit: Int, among candidates: [Int64]?, approximately: Bool = false
    ) throws -> [(id: Int64, score: Float)] {
        guard let unit = VectorMatrix.normalized(vector) else { throw CollectionStoreError.zeroVector }
        guard matrix.count > 0 else { return [] }
        guard unit.count == matrix.dimension else {
            throw CollectionStoreError.dimensionMismatch(query: unit.count, stored: matrix.dimension)
        }
        let among = candidates.map { $0.compactMap { rows[$0] } }
        let found =
            approximately
            ? matrix.nearestApproximately(to: unit, k: limit, among: among, quantized: quantizedMatrix())
            : matrix.nearest(to: unit, k: limit, among: among)
        // A float dot product of unit vectors can round past ±1 (a photo scored 1.0000001 against itself).
        return found.map { (ids[$0.row], min(1, max(-1, $0.score))) }
    }

    private func quantizedMatrix() -> QuantizedMatrix {
        quantized.withLock { quantized in
            if let quantized { return quantized }
            let made = QuantizedMatrix(matrix)
            quantized = made
            return made
        }
    }

    /// The ids of items whose embeddings have a cosine similarity of at least `threshold`, in groups linked pairwise.
    func duplicateGroups(threshold: Float) -> [[Int64]] {
        var groups = DisjointSets(count: matrix.count)
        for (first, second) in matrix.pairs(atLeast: threshold) { groups.join(first, second) }
        return groups.groups().filter { $0.count > 1 }.map { $0.map { ids[$0] } }
    }
}

/// Each collection's vectors as last loaded, reused while the collection's version is the same.
final class VectorCache: Sendable {
    private let loaded = Mutex<[Int64: CollectionVectors]>([:])

    /// The vectors of collection `id` at `version`, loaded by `load` only when the cache holds another version.
    func vectors(
        ofCollection id: Int64, at version: CollectionVectors.Version, load: () throws -> CollectionVectors
    ) rethrows -> CollectionVectors {
        if let cached = loaded.withLock({ $0[id] }), cached.version == version { return cached }
        let vectors = try load()
        loaded.withLock { $0[id] = vectors }
        return vectors
    }
}

/// Groups of rows joined pairwise (union–find with path halving).
struct DisjointSets {
    private var parents: [Int]

    init(count: Int) { parents = Array(0..<count) }

    mutating func root(_ element: Int) -> Int {
        var element = element
        while parents[element] != element {
            parents[element] = parents[parents[element]]
            element = parents[element]
        }
        return element
    }

    mutating func join(_ first: Int, _ second: Int) {
        let (a, b) = (root(first), root(second))
        if a != b { parents[max(a, b)] = min(a, b) }
    }

    /// Every group, each in ascending order, ordered by its first element.
    mutating func groups() -> [[Int]] {
        var byRoot: [Int: [Int]] = [:]
        for element in parents.indices { byRoot[root(element), default: []].append(element) }
        return byRoot.values.sorted { $0[0] < $1[0] }
    }
}

extension CollectionStore {
    /// The hits of `query` whose filters matched `candidates` (in id order; the first `limit` of them when the
    /// query has no vector): those candidates, or the nearest of them to the query's vector among the
    /// collection's `vectors`, with the items that `items` reads.
    func hits(
        of query: CollectionQuery, candidates: [Int64], vectors: () throws -> CollectionVectors,
        items: ([Int64]) throws -> [CollectionItem]
    ) throws -> [SearchHit] {
        guard let vector = query.vector else {
            return try items(candidates).map { SearchHit(item: $0, score: nil) }
        }
        let ranked = try vectors().nearest(
            to: vector, limit: query.limit, among: query.hasFilters ? candidates : nil, approximately: query.approximate)
        let found = Dictionary(uniqueKeysWithValues: try items(ranked.map(\.id)).map { ($0.id, $0) })
        return ranked.compactMap { hit in found[hit.id].map { SearchHit(item: $0, score: hit.score) } }
    }

    /// The groups of items of `groups` of ids, with the items that `items` reads.
    func itemGroups(_ groups: [[Int64]], items: ([Int64]) throws -> [CollectionItem]) rethrows -> [[CollectionItem]] {
        let found = Dictionary(uniqueKeysWithValues: try items(groups.flatMap { $0 }).map { ($0.id, $0) })
        return groups.map { $0.compactMap { found[$0] } }
    }
}
