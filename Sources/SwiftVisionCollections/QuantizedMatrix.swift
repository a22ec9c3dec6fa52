import CVectorKernels
import Dispatch

/// A ``VectorMatrix``'s rows as int8, for the first pass of an approximate search: a quarter of the memory to
/// read per query. Every value is scaled by one factor, 127 over the largest magnitude in the matrix, and
/// rounded, so that unit vectors of 1280 small values keep about seven bits each (MediaPipe's fixed
/// `round(value × 128)`, which the store keeps for export, would leave them four).
public struct QuantizedMatrix: Sendable {
    /// The length of every vector.
    public let dimension: Int
    /// How many vectors it holds.
    public let count: Int
    private let values: [Int8]

    /// The rows of `matrix`, quantized.
    public init(_ matrix: VectorMatrix) {
        dimension = matrix.dimension
        count = matrix.count
        values = Self.quantized(matrix.values)
    }

    /// `values` scaled by 127 over their largest magnitude and rounded; all zero when they are.
    static func quantized(_ values: [Float]) -> [Int8] {
        let largest = values.reduce(Float(0)) { max($0, abs($1)) }
        guard largest > 0, largest.isFinite else { return [Int8](repeating: 0, count: values.count) }
        let scale = 127 / largest
        return values.map { Int8(($0 * scale).rounded()) }
    }

    /// The `count` rows whose int8 copies score highest against `query` (any scale), best first; only `rows`
    /// when given. The rows are split among `threads` threads.
    func shortlist(for query: [Float], count wanted: Int, among rows: [Int]?, threads: Int = 2) -> [Int] {
        let total = rows?.count ?? count
        guard wanted > 0, total > 0 else { return [] }
        let query = Self.quantized(query)
        let parts = max(1, min(threads, total / 4096 + 1))
        let best = PartCollector<(row: Int, score: Float)>(parts: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = (total * part / parts)..<(total * (part + 1) / parts)
            var top = TopScores(k: wanted)
            var scores = [Int32](repeating: 0, count: rows == nil ? range.count : 1)
            values.withUnsafeBufferPointer { matrix in
                query.withUnsafeBufferPointer { query in
                    scores.withUnsafeMutableBufferPointer { scores in
                        if let rows {
                            for position in range {
                                sv_int8_dot_rows(
                                    query.baseAddress, matrix.baseAddress! + rows[position] * dimension, dimension, 1,
                                    scores.baseAddress)
                                top.insert(row: rows[position], score: Float(scores[0]))
                            }
                        } else {
                            sv_int8_dot_rows(
                                query.baseAddress, matrix.baseAddress! + range.lowerBound * dimension, dimension, range.count,
                                scores.baseAddress)
                            for (offset, score) in scores.enumerated() { top.insert(row: range.lowerBound + offset, score: Float(score)) }
                        }
                    }
                }
            }
            best.store(top.entries, at: part)
        }
        var merged = TopScores(k: wanted)
        for entry in best.all { merged.insert(row: entry.row, score: entry.score) }
        return merged.sorted.map(\.row)
    }
}

extension VectorMatrix {
    /// The `k` rows most similar to the unit vector `query`, found approximately: every row (or each of `rows`)
    /// is scored on its int8 copy in `quantized`, and the best `max(10 k, 100)` of them again exactly.
    public func nearestApproximately(
        to query: [Float], k: Int, among rows: [Int]? = nil, quantized: QuantizedMatrix, threads: Int = 2
    ) -> [(row: Int, score: Float)] {
        precondition(query.count == dimension && quantized.count == count, "a query or an index that does not fit the matrix")
        let shortlist = quantized.shortlist(for: query, count: max(10 * k, 100), among: rows, threads: threads)
        return nearest(to: query, k: k, among: shortlist, threads: 1)
    }
}
