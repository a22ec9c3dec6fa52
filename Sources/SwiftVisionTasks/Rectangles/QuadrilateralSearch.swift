import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Rough quadrilaterals traced in binary maps of a gray image: outlines that simplify to four
/// corners, directly or through their convex hull (which cuts rounded corners).
///
/// Several maps are searched because no single one separates every object from its background:
/// strong Canny edges; the image cut at several gray levels, which parts a bright page from the
/// clutter its edges touch; and an adaptive threshold, which follows uneven light.
///
/// Faint Canny edges give no map of their own: the straight pieces of their outlines are the segments that
/// ``SegmentChainSearch`` chains into candidates for the sides no closed outline follows
/// (``segments(minimumLength:)``). They are traced only when those are asked for, as the outlines of most
/// photos leave no need for them: found with the strong edges, they took 0.2 ms more of each frame's 0.6,
/// and found apart, where they are needed, they took 0.39 ms. Their gradient is the strong edges' own: its
/// maxima are classified for both pairs of thresholds at once (0.27 million instructions more on every
/// 360×640 MIDV-500 frame) and the faint ones traced when needed (3–6 million fewer where they are). Their dilated map, traced for
/// outermost outlines, added nothing on the rectangles DEV set: without it right stays 59 of 70 and the
/// median 1.07 px, the only frame that moves is the wrong 31_jpn_drvlic-2 (13.7 → 15.4 px), and the
/// sample photos keep their rectangles; it cost about 1 ms of a 5-9 ms frame (the map, its outlines and
/// their simplification).
///
/// Only the strong edges and the adaptive threshold are traced inside as well as outside (their holes'
/// outlines too); the gray cuts gave, as the faint edges' map did, their outermost outlines alone, which
/// skipped tracing the thousands of holes that texture leaves in a dilated edge map (4.5 ms against 0.7 ms
/// on one 640-pixel MIDV-500 frame).
/// On the rectangles DEV set (70 MIDV-500 frames, `eval/rectangles_dev.py`) that keeps right at 59 and the
/// median at 1.10 px, with 31_jpn_drvlic-6 0.94 → 0.82 px and the wrong 44_ukr_id-3 20.4 → 24.3 px; on the
/// TEST set right goes from 23 to 24 of 30 (26_hrv_drvlic-1 132 → 0.55 px, the faint edges' pieces), median
/// 1.34 → 1.27 px. Outermost outlines of the strong edges too would put DEV's 02_aut_drvlic_new-2 2.6 px
/// further off, of the adaptive threshold too would lose 43_tur_id-7.
struct QuadrilateralSearch {
    /// Outlines whose bounding box has a shorter side below this many pixels are skipped.
    let minimumSide: Double
    /// Gray levels at which the image is cut. The outer cuts, 48 and 208, add nothing: without them the
    /// rectangles DEV set keeps right at 59 of 70 (22_est_id-4 2.0 → 0.77 px, median 1.10 → 1.07 px) and
    /// TEST at 24 of 30 (43_tur_id-4 1.33 → 0.75 px, median 1.27 → 1.25 px), no frame further off.
    static let levels = stride(from: 88.0, through: 168, by: 40)
    /// How far, in pixels, a segment taken from an edge's outline may stray from the edge.
    static let segmentTolerance = 1.5
    /// At most this many of the longest pieces are returned by ``segments(minimumLength:)``: chaining
    /// joins pieces pairwise, and a busy photo has thousands (2,159 on the bus at 1 megapixel), most
    /// of them short texture.
    static let segmentLimit = 300
    /// The searched gray image, blurred.
    private let smooth: PixelBuffer
    /// Strong Canny edges of `smooth`, one pixel wide.
    private let strongEdges: PixelBuffer
    /// The faint edges' maxima, classified with the strong edges' gradient, traced only when their pieces are asked for.
    private let faintMaxima: CannyMaxima

    /// A search of the gray image `image` for outlines whose shorter side spans at least `minimumSide` pixels.
    init(image: PixelBuffer, minimumSide: Double) throws {
        self.minimumSide = minimumSide
        smooth = try image.blurred(sigma: 1)
        (strongEdges, faintMaxima) = try smooth.fastCannyEdges(low: 40, high: 120, later: (low: 12, high: 36))
    }

    /// The maps one pass of the search traces.
    enum Maps {
        /// The strong edges' map: what a document scanner traces, and on most photos enough.
        case edges
        /// The adaptive threshold, which follows uneven light.
        case adaptive
        /// The gray cuts, which part a bright page from the clutter its edges touch.
        case cuts
    }

    /// The candidates traced in `maps` that lie apart from every one in `found`, corners ordered from
    /// the top left clockwise; each is added to `found`. The edges, the adaptive threshold and then the
    /// cuts give the candidates of one search of every map, in the same order.
    func candidates(in maps: Maps, distinctFrom found: inout DistinctQuadrilaterals) throws -> [Quadrilateral] {
        // Each map with whether only its outermost outlines are traced.
        var traced: [(PixelBuffer, Bool)] = []
        switch maps {
        case .edges:
            traced.append((try strongEdges.morphology(.dilate, size: 3), false))
        case .adaptive:
            let block = max(15, min(smooth.width, smooth.height) / 12)
            traced.append((try smooth.adaptiveThreshold(blockSize: block, offset: 6, inverted: true), false))
        case .cuts:
            for level in Self.levels { traced.append((try smooth.thresholded(at: level), true)) }
        }
        var added: [Quadrilateral] = []
        for (map, outerOnly) in traced {
            for contour in try map.contours(outerOnly: outerOnly, keeping: spans) {
                for shape in try quadrilaterals(approximating: contour) where found.insert(shape) { added.append(shape) }
            }
        }
        return added
    }

    /// The longest straight pieces, at least `minimumLength` pixels long and at most ``segmentLimit``
    /// of them, of the faint edges: each edge's outermost outline simplified to within
    /// ``segmentTolerance`` pixels, each piece once (a thin edge's outline runs along it and back).
    func segments(minimumLength: Double) throws -> [LineSegment] {
        var segments: [LineSegment] = []
        let faintEdges = try faintMaxima.edges()
        let outlines = try faintEdges.contours(outerOnly: true) { bounds, pointCount in
            pointCount >= 2 && Double(max(bounds.width, bounds.height)) >= minimumLength
        }
        for contour in outlines {
            let corners = try contour.simplified(epsilon: Self.segmentTolerance).points.map { SIMD2<Double>($0) }
            var pieces: [LineSegment] = []
            for index in corners.indices {
                let piece = LineSegment(start: corners[index], end: corners[(index + 1) % corners.count])
                guard piece.length >= minimumLength,
                    !pieces.contains(where: { Self.isReverse($0, of: piece) })
                else { continue }
                pieces.append(piece)
            }
            segments += pieces
        }
        // Each length worked out once: a busy photo's thousands of pieces are compared many times each.
        let longestFirst = segments.map { (segment: $0, length: $0.length) }.sorted { $0.length > $1.length }
        return longestFirst.prefix(Self.segmentLimit).map(\.segment)
    }

    /// Whether `a` runs along `b` the other way, its ends within ``segmentTolerance`` × 2 pixels of `b`'s.
    private static func isReverse(_ a: LineSegment, of b: LineSegment) -> Bool {
        let tolerance = 2 * segmentTolerance
        let d1 = a.start - b.end, d2 = a.end - b.start
        return (d1 * d1).sum() <= tolerance * tolerance && (d2 * d2).sum() <= tolerance * tolerance
    }

    /// Whether an outline of `pointCount` points and these bounds spans more than `minimumSide` in both directions.
    private func spans(_ bounds: CGRect, pointCount: Int) -> Bool {
        pointCount >= 4 && Double(min(bounds.width, bounds.height)) > minimumSide
    }

    /// Four-cornered simplifications of the outline itself and of its convex hull.
    private func quadrilaterals(approximating contour: PixelPolygon) throws -> [Quadrilateral] {
        var shapes: [Quadrilateral] = []
        if let shape = try fourCorners(of: contour, tolerances: [0.02]) { shapes.append(shape) }
        if let shape = try fourCorners(of: try contour.convexHull(), tolerances: [0.02, 0.035, 0.05, 0.08]) {
            shapes.append(shape)
        }
        return shapes
    }

    /// The first simplification of `polygon` with exactly four corners, trying tolerances given as
    /// fractions of its perimeter.
    private func fourCorners(of polygon: PixelPolygon, tolerances: [Double]) throws -> Quadrilateral? {
        let perimeter = polygon.perimeter
        for fraction in tolerances {
            let simplified = try polygon.simplified(epsilon: fraction * perimeter)
            if simplified.points.count == 4 {
                let shape = Quadrilateral(orderingCorners: simplified.points.map { CGPoint(x: Double($0.x), y: Double($0.y)) })
                return shape.isConvex ? shape : nil
            }
            if simplified.points.count < 4 { return nil }
        }
        return nil
    }
}
