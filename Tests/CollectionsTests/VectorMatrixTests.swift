import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCollections

@Suite struct VectorMatrixTests {
    /// Seeded unit vectors of `dimension` values, uniform in each coordinate before scaling.
    static func vectors(_ count: Int, dimension: Int, seed: UInt64) -> [[Float]] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            VectorMatrix.normalized((0..<dimension).map { _ in Float.random(in: -1...1, using: &generator) })!
        }
    }

    @Test func nearestEqualsASortOfEveryScore() {
        // 1283 values: the 16-lane loop and the 3 left over both count.
        let vectors = Self.vectors(3000, dimension: 1283, seed: 7)
        var matrix = VectorMatrix(dimension: 1283)
        vectors.forEach { matrix.append($0) }
        let query = vectors[1234]
        var scores: [(row: Int, score: Double)] = []
        for (row, vector) in vectors.enumerated() {
            var sum = 0.0
            for (a, b) in zip(query, vector) { sum += Double(a) * Double(b) }
            scores.append((row, sum))
        }
        let expected = scores.sorted { $0.score > $1.score }.prefix(10)
        let found = matrix.nearest(to: query, k: 10)
        #expect(found.map { $0.row } == expected.map { $0.row })
        #expect(found[0].row == 1234 && abs(found[0].score - 1) < 1e-5)
        for (hit, truth) in zip(found, expected) { #expect(abs(Double(hit.score) - truth.score) < 1e-4) }
        // Restricted to some rows, only those are ranked.
        let among = Array(stride(from: 1, to: 3000, by: 2))
        #expect(matrix.nearest(to: query, k: 5, among: among).allSatisfy { $0.row % 2 == 1 })
    }

    @Test func approximateSearchFindsTheExactTopTenWithExactScores() {
        // Fresh random queries, not stored vectors: their top ten are close together, the hard case for an int8 pass.
        var generator = SyntheticVectors(seed: 21)
        let matrix = generator.matrix(count: 20_000, dimension: 1283)
        let quantized = QuantizedMatrix(matrix)
        var shared = 0
        for _ in 0..<10 {
            let query = generator.next(dimension: 1283)
            let exact = matrix.nearest(to: query, k: 10)
            let approximate = matrix.nearestApproximately(to: query, k: 10, quantized: quantized)
            shared += Set(exact.map(\.row)).intersection(approximate.map(\.row)).count
            let exactScores = Dictionary(uniqueKeysWithValues: exact.map { ($0.row, $0.score) })
            for hit in approximate { if let score = exactScores[hit.row] { #expect(abs(hit.score - score) < 1e-6) } }
        }
        #expect(shared >= 99, "recall of the exact top 10: \(shared) of 100")
        // Restricted to some rows, only those are ranked; a stored vector finds itself first.
        let among = Array(stride(from: 1, to: 20_000, by: 2))
        let stored = Array(matrix.values[1283 * 777..<1283 * 778])
        let found = matrix.nearestApproximately(to: stored, k: 5, among: among, quantized: quantized)
        #expect(found.first?.row == 777 && found.allSatisfy { $0.row % 2 == 1 })
    }

    @Test func pairsFindsTheCopiesAndNothingElse() {
        var vectors = Self.vectors(500, dimension: 64, seed: 11)
        // Two near-copies: a vector nudged by 1 % noise keeps a cosine above 0.99 with its original.
        var generator = SeededGenerator(seed: 12)
        for source in [17, 301] {
            vectors.append(VectorMatrix.normalized(vectors[source].map { $0 + Float.random(in: -0.01...0.01, using: &generator) })!)
        }
        var matrix = VectorMatrix(dimension: 64)
        vectors.forEach { matrix.append($0) }
        let pairs = matrix.pairs(atLeast: 0.95)
        #expect(pairs.map { [$0.0, $0.1] }.sorted { $0[0] < $1[0] } == [[17, 500], [301, 501]])
    }
}
