import SwiftVisionCore
import SwiftVisionRuntime

/// Turns a classifier's scores into labels, best first: MediaPipe's classification post-processing
/// (score threshold, allow or deny list of class names, most results).
struct ClassificationFilter: Sendable {
    let threshold: Float
    let maxResults: Int
    /// The class indices that may be reported; nil for all.
    let allowed: Set<Int>?
    let denied: Set<Int>

    /// Checks the options against the model's class `names` (nil when it has no label file).
    init(names: [String]?, threshold: Float, maxResults: Int, allowlist: [String], denylist: [String]) throws {
        guard (0...1).contains(threshold) else { throw ClassificationError.invalidConfidenceThreshold(threshold) }
        guard maxResults > 0 else { throw ClassificationError.invalidMaxResultCount(maxResults) }
        guard allowlist.isEmpty || denylist.isEmpty else { throw ClassificationError.conflictingCategoryLists }
        self.threshold = threshold
        self.maxResults = maxResults
        guard !allowlist.isEmpty || !denylist.isEmpty else {
            (allowed, denied) = (nil, [])
            return
        }
        guard let names else { throw ClassificationError.categoryListsNeedLabels }
        func indices(_ list: [String]) throws -> Set<Int> {
            try Set(list.flatMap { category in
                let matches = names.indices.filter { names[$0] == category }
                guard !matches.isEmpty else { throw ClassificationError.unknownCategory(category) }
                return matches
            })
        }
        allowed = allowlist.isEmpty ? nil : try indices(allowlist)
        denied = try indices(denylist)
    }

    /// The labels of the classes that pass, most confident first (ties by index), at most `maxResults`.
    func labels(scores: [Float], names: [String]?) -> [ClassLabel] {
        let passing = scores.indices.filter { index in
            scores[index] >= threshold && !denied.contains(index) && allowed?.contains(index) != false
        }
        let best = passing.sorted { scores[$0] > scores[$1] || (scores[$0] == scores[$1] && $0 < $1) }.prefix(maxResults)
        return best.map { ClassLabel(text: names?[$0] ?? "", confidence: scores[$0], index: $0) }
    }
}
