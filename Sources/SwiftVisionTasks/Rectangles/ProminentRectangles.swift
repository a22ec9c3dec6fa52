import Foundation
import SwiftVisionCore

/// The rectangles to report, gathered as candidates are fitted: the most prominent first (by
/// confidence² × √(share of the image's area)), each left out whose corners all lie within 1.5 % of
/// the image's shorter side of a more prominent one's, up to a limit.
///
/// Once the limit is reached, a candidate that could at best be less prominent than the last
/// rectangle reported cannot change the report: ``couldReport(prominence:)`` tells, so that the
/// detector skips the fitting of such candidates.
struct ProminentRectangles {
    /// The image's area in pixels.
    let imageArea: Double
    /// How close every corner must be for a rectangle to count as a more prominent one, in pixels.
    let sameness: Double
    /// The most rectangles reported; nil for all.
    let limit: Int?
    /// Every rectangle inserted.
    private var candidates: [DetectedRectangle] = []
    /// The report of ``candidates``, kept up to date while there is a limit (without one, nothing can
    /// be skipped and it is worked out once, at the end).
    private var report: [DetectedRectangle] = []

    /// An empty collection for an image of `imageSize`, reporting at most `limit` rectangles (0: all).
    init(imageSize: CGSize, limit: Int) {
        imageArea = Double(imageSize.width * imageSize.height)
        sameness = 0.015 * Double(min(imageSize.width, imageSize.height))
        self.limit = limit > 0 ? limit : nil
    }

    /// The prominence of a rectangle of `confidence` and `area`.
    func prominence(confidence: Float, area: Double) -> Double {
        Double(confidence * confidence) * (area / imageArea).squareRoot()
    }

    /// Whether a rectangle of this prominence could still be reported.
    func couldReport(prominence: Double) -> Bool {
        guard let limit, report.count >= limit, let last = report.last else { return true }
        return prominence >= self.prominence(confidence: last.confidence, area: last.corners.area)
    }

    /// Adds `rectangle` to the candidates.
    mutating func insert(_ rectangle: DetectedRectangle) {
        candidates.append(rectangle)
        if limit != nil { report = Self.reported(candidates, by: self) }
    }

    /// The rectangles to report, the most prominent first.
    var reported: [DetectedRectangle] {
        limit == nil ? Self.reported(candidates, by: self) : report
    }

    private static func reported(_ candidates: [DetectedRectangle], by rules: ProminentRectangles) -> [DetectedRectangle] {
        func prominence(_ rectangle: DetectedRectangle) -> Double {
            rules.prominence(confidence: rectangle.confidence, area: rectangle.corners.area)
        }
        var result: [DetectedRectangle] = []
        for rectangle in candidates.sorted(by: { prominence($0) > prominence($1) })
        where result.count < rules.limit ?? .max
            && !result.contains(where: { $0.corners.largestCornerDistance(to: rectangle.corners) < rules.sameness })
        {
            result.append(rectangle)
        }
        return result
    }
}
