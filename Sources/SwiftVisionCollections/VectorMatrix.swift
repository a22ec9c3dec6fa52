import Dispatch
import Foundation

/// Unit-length float vectors of one length in one contiguous block, searched exactly: the cosine
/// similarity of two unit vectors is their dot product, summed sixteen lanes at a time.
public struct VectorMatrix: Sendable {
    /// The length of every vector.
    public let dimension: Int
    /// The vectors, one after another.
    public private(set) var values: [Float]
    /// How many vectors the matrix holds.
    public var count: Int { dimension == 0 ? 0 : values.count / dimension }

    /// An empty matrix of vectors of `dimension` values.
    public init(dimension: Int) {
        self.dimension = dimension
        values = []
    }

    /// Appends `vector`, which must have ``dimension`` values.
    public mutating func append(_ vector: [Float]) {
        precondition(vector.count == dimension, "a vector of \(vector.count) values in a matrix of \(dimension)")
        values.append(contentsOf: vector)
    }

    /// Reserves room for `count` vectors.
    public mutating func reserveCapacity(_ count: Int) {
        values.reserveCapacity(count * dimension)
    }

    /// `vector` scaled to unit length; nil when it is empty or all zero.
    public static func normalized(_ vector: [Float]) -> [Float]? {
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard norm > 0, norm.isFinite else { return nil }
        return vector.map { $0 / norm }
    }

    /// The `k` rows most similar to the unit vector `query`, most similar first, as (row, cosine
    /// similarity); only `rows` when given. The rows are split among `threads` threads.
    public func nearest(to query: [Float], k: Int, among rows: [Int]? = nil, threads: Int = 2) -> [(row: Int, score: Float)] {
        precondition(query.count == dimension, "a query of \(query.count) values in a matrix of \(dimension)")
        let total = rows?.count ?? count
        guard k > 0, total > 0 else { return [] }
        let parts = max(1, min(threads, total / 1024 + 1))
        let best = PartCollector<(row: Int, score: Float)>(parts: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var top = TopScores(k: k)
            values.withUnsafeBufferPointer { matrix in
                query.withUnsafeBufferPointer { query in
                    for position in (total * part / parts)..<(total * (part + 1) / parts) {
                        let row = rows?[position] ?? position
                        top.insert(row: row, score: Self.dot(query.baseAddress!, matrix.baseAddress! + row * dimension, dimension))
                    }
                }
            }
            best.store(top.entries, at: part)
        }
        var merged = TopScores(k: k)
        for entry in best.all { merged.insert(row: entry.row, score: entry.score) }
        return merged.sorted
    }

    /// Every pair of rows whose cosine similarity is at least `threshold`, each as (lower row, higher row).
    public func pairs(atLeast threshold: Float, threads: Int = 2) -> [(Int, Int)] {
        let count = count
        guard count > 1 else { return [] }
        let parts = max(1, min(threads, count))
        let found = PartCollector<(Int, Int)>(parts: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            var pairs: [(Int, Int)] = []
            values.withUnsafeBufferPointer { matrix in
                // Rows are dealt out in turn, so that each part gets long and short rows of the triangle alike.
                for row in stride(from: part, to: count, by: parts) {
                    let vector = matrix.baseAddress! + row * dimension
                    for other in (row + 1)..<count
                    where Self.dot(vector, matrix.baseAddress! + other * dimension, dimension) >= threshold {
                        pairs.append((row, other))
                    }
                }
            }
            found.store(pairs, at: part)
        }
        return found.all
    }

    /// The dot product of `length` floats at `a` and `b`: sixteen lanes at a time, then the rest.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ length: Int) -> Float {
        var sum = SIMD16<Float>()
        var index = 0
        let (rawA, rawB) = (UnsafeRawPointer(a), UnsafeRawPointer(b))
        while index + 16 <= length {
            let offset = index * MemoryLayout<Float>.stride
            sum += rawA.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
                * rawB.loadUnaligned(fromByteOffset: offset, as: SIMD16<Float>.self)
            index += 16
        }
        var result = sum.sum()
        while index < length {
            result += a[index] * b[index]
            index += 1
        }
        return result
    }
}

/// The `k` highest scores seen, kept in a small sorted array (k is small; insertions past the k-th are
/// rejected with one comparison).
struct TopScores {
    let k: Int
    private(set) var entries: [(row: Int, score: Float)] = []

    init(k: Int) {
        self.k = k
        entries.reserveCapacity(min(k, 1024) + 1)
    }

    mutating func insert(row: Int, score: Float) {
        if entries.count == k, let last = entries.last, score <= last.score { return }
        var position = entries.count
        while position > 0, entries[position - 1].score < score { position -= 1 }
        entries.insert((row, score), at: position)
        if entries.count > k { entries.removeLast() }
    }

    /// The entries, highest score first (ties: lower row first).
    var sorted: [(row: Int, score: Float)] {
        entries.sorted { $0.score != $1.score ? $0.score > $1.score : $0.row < $1.row }
    }
}

/// Each thread's part of a result, stored once per part from `concurrentPerform`.
final class PartCollector<Element>: @unchecked Sendable {
    private var parts: [[Element]]
    private let lock = NSLock()

    init(parts: Int) { self.parts = Array(repeating: [], count: parts) }

    func store(_ elements: [Element], at part: Int) {
        lock.withLock { parts[part] = elements }
    }

    var all: [Element] { lock.withLock { parts.flatMap { $0 } } }
}

/// Seeded synthetic unit vectors for benchmarks: uniform values in −1…1 from a 64-bit linear congruential
/// generator (Knuth's MMIX constants), scaled to unit length; the same vectors for the same seed.
public struct SyntheticVectors {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next vector of `dimension` values.
    public mutating func next(dimension: Int) -> [Float] {
        var values = [Float](repeating: 0, count: dimension)
        for index in values.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            values[index] = Float(state >> 40) / Float(1 << 24) * 2 - 1
        }
        return VectorMatrix.normalized(values) ?? values
    }

    /// A matrix of the next `count` vectors.
    public mutating func matrix(count: Int, dimension: Int) -> VectorMatrix {
        var matrix = VectorMatrix(dimension: dimension)
        matrix.reserveCapacity(count)
        for _ in 0..<count { matrix.append(next(dimension: dimension)) }
        return matrix
    }
}
