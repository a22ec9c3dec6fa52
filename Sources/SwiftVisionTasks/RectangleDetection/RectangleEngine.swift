import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Finds rectangles — pages, cards, screens, signs — in perspective, as Vision's
/// `VNDetectRectanglesRequest` does, without a learned model.
///
/// Edge maps of a reduced gray copy yield rough quadrilaterals; each side is then refitted to the
/// strongest straight edge nearby, first on the reduced copy and then on the full image, and the
/// corners are where the fitted sides meet, moved where a side bends or has a thick border line near
/// them onto its outer edge there. A value type, safe to share between threads.
package struct RectangleEngine: Sendable {
    /// What counts as a rectangle.
    package var options: RectangleDetectorOptions

    /// The longer side of the copy searched for rough outlines, in pixels.
    static let workingSide = 1024
    /// The longer side of the copy searched for line segments, in pixels.
    static let lineSide = 640
    /// Candidates below this confidence are never reported: their sides are, on geometric average,
    /// on a clear edge for less than half their length (noise and texture reach about 0.4).
    static let minimumSupport = 0.5

    /// A detector for `options`, by default Vision's.
    package init(options: RectangleDetectorOptions = .init()) {
        self.options = options
    }

    /// The rectangles in `image`, the most prominent first (by confidence² × √(share of the image's area)).
    package func results(in image: VisionImage) throws -> [DetectedRectangle] {
        try options.validate()
        let full = try image.uprightGray()
        let (work, scale) = try full.grayscaled(maximumSide: Self.workingSide)
        let minimumSide = max(8, Double(options.minimumSize) * Double(min(work.width, work.height)))
        let coarse = EdgeFitter(image: try work.blurred(sigma: 0.7))
        let fine = EdgeFitter(image: full, inlierDistance: max(1.5, (scale.width + scale.height) / 2))
        let cornerFitter = CornerFitter(edges: fine)
        var found: [DetectedRectangle] = []
        for shape in try roughCandidates(in: work, minimumSide: minimumSide)
        where isAcceptable(shape, minimumSide: minimumSide * 0.8, slack: 10) {
            // A wide search first (rough corners may be cut by rounding or off by a few pixels), then a narrow one.
            guard let fitted = coarse.refine(shape, radius: 6).flatMap({ coarse.refine($0.shape, radius: 2) }),
                isAcceptable(fitted.shape, minimumSide: minimumSide, slack: 0),
                fitted.confidence >= max(Self.minimumSupport, Double(options.minimumConfidence))
            else { continue }
            var corners = fitted.shape.applying { CGPoint(x: $0.x * scale.width, y: $0.y * scale.height) }
            if scale.width > 1, let sharper = fine.refine(corners, radius: 1.5 * max(scale.width, scale.height) + 1),
                sharper.support.allSatisfy({ $0 >= 0.5 })
            {
                corners = sharper.shape
            }
            corners = cornerFitter.refine(corners)
            found.append(DetectedRectangle(corners: corners, confidence: Float(fitted.confidence)))
        }
        let ranked = Self.distinct(found, imageSize: CGSize(width: full.width, height: full.height))
        return options.maximumObservations > 0 ? Array(ranked.prefix(options.maximumObservations)) : ranked
    }

    /// Rough quadrilaterals from contours of binary maps and from chains of line segments.
    private func roughCandidates(in work: PixelBuffer, minimumSide: Double) throws -> [Quadrilateral] {
        let shapes = try QuadrilateralSearch(image: work, minimumSide: minimumSide * 0.8).candidates()
        let chains = SegmentChainSearch(
            minimumLength: minimumSide * 0.3, minimumAngle: 80 - Double(options.quadratureTolerance))
        // Line segments are found in a smaller copy (much faster, as good for rough shapes) and scaled back.
        let (lineImage, lineScale) = try work.grayscaled(maximumSide: Self.lineSide)
        let factor = SIMD2(Double(lineScale.width), Double(lineScale.height))
        let segments = try lineImage.lineSegments().map { LineSegment(start: $0.start * factor, end: $0.end * factor) }
        var kept = DistinctQuadrilaterals(tolerance: 3)
        for shape in shapes + chains.candidates(from: segments) { kept.insert(shape) }
        return kept.shapes
    }

    /// `rectangles` by prominence, leaving out any whose corners all lie within 1.5 % of the image's
    /// shorter side of a more prominent one's.
    private static func distinct(_ rectangles: [DetectedRectangle], imageSize: CGSize) -> [DetectedRectangle] {
        let area = Double(imageSize.width * imageSize.height)
        func prominence(_ rectangle: DetectedRectangle) -> Double {
            Double(rectangle.confidence * rectangle.confidence) * (rectangle.corners.area / area).squareRoot()
        }
        let sameness = 0.015 * Double(min(imageSize.width, imageSize.height))
        var result: [DetectedRectangle] = []
        for rectangle in rectangles.sorted(by: { prominence($0) > prominence($1) })
        where !result.contains(where: { $0.corners.largestCornerDistance(to: rectangle.corners) < sameness }) {
            result.append(rectangle)
        }
        return result
    }

    /// Whether `shape` meets the options' aspect ratio, right-angle tolerance (widened by `slack`
    /// degrees and ratio hundredths) and size.
    private func isAcceptable(_ shape: Quadrilateral, minimumSide: Double, slack: Double) -> Bool {
        guard shape.isConvex else { return false }
        let size = shape.averageSideLengths
        let shorter = Double(min(size.width, size.height)), longer = Double(max(size.width, size.height))
        guard shorter >= minimumSide, longer > 0 else { return false }
        let ratio = shorter / longer
        let ratioSlack = slack / 100
        guard ratio >= Double(options.minimumAspectRatio) - ratioSlack, ratio <= Double(options.maximumAspectRatio) + ratioSlack
        else { return false }
        let tolerance = Double(options.quadratureTolerance) + slack
        return shape.cornerAngles.allSatisfy { abs($0 - 90) <= tolerance }
    }
}
