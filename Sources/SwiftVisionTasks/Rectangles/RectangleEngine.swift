import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Finds rectangles — pages, cards, screens, signs — in perspective, as Vision's
/// `VNDetectRectanglesRequest` does, without a learned model.
///
/// Outlines in edge maps of a gray copy reduced to 640 pixels yield rough quadrilaterals, and where
/// they leave the report open, chains of straight segments too: the straight pieces of those outlines
/// where no outline was found, line segments (LSD's) where one was found but fits weakly or
/// where the pieces find nothing either (see ``results(in:)``). The candidates whose rough
/// support promises the most have each side refitted to the strongest straight edge nearby, first on
/// a 1024-pixel copy and then, for the rectangles that could still be reported, on the full image, and
/// the corners are where the fitted sides meet, moved where a side bends or has a thick border line
/// near them onto its outer edge there. A value type, safe to share between threads.
package struct RectangleEngine: Sendable {
    /// What counts as a rectangle.
    package var options: RectangleEngineOptions

    /// The longer side of the copy the sides are fitted on before the full image, in pixels.
    static let workingSide = 1024
    /// The longer side of the copy searched for rough outlines and line segments, in pixels.
    static let searchSide = 640
    /// Candidates below this confidence are never reported: their sides are, on geometric average,
    /// on a clear edge for less than half their length (noise and texture reach about 0.4).
    static let minimumSupport = 0.5
    /// When outlines alone yield as many rectangles as asked for, each at least this confident, the
    /// line segments (a third to a half of the time) are not searched: they add candidates for sides
    /// that no outline follows, such as a page whose corner is hidden.
    /// When the outlines of the maps traced so far yield as many rectangles as asked for, each at least
    /// this confident and covering at least ``decidedShare`` of the image, the other maps are not traced
    /// either (``isDecided(_:imageArea:)``).
    static let settledConfidence = 0.85
    /// The least share of the image's area that each rectangle of a decided report covers.
    static let decidedShare = 0.2

    /// A detector for `options`, by default Vision's.
    package init(options: RectangleEngineOptions = .init()) {
        self.options = options
    }

    /// The rectangles in `image`, the most prominent first (by confidence² × √(share of the image's area)).
    ///
    /// Outlines first, map by map: the strong edges', the adaptive threshold's, the gray cuts', each
    /// traced only while those before it leave the report undecided (``isDecided(_:imageArea:)``).
    /// Where the outlines leave the report open, chains of segments: where no outline was found, of
    /// the outlines' own straight pieces (with no limit too: on two MIDV-500 frames of the
    /// DEV set, 02_aut_drvlic_new-4 and 03_aut_id_old-3, only the pieces find the card, and without
    /// them no limit reported nothing where a limit of 1 reported it), which cost about a tenth of line segments (5 ms
    /// against 35–45 ms on the bus at 1 megapixel); where an outline was found but fits weakly (below
    /// ``settledConfidence``), where nothing is found at all, or where every rectangle is asked for (no
    /// limit), of LSD's line segments, which follow the gray-level gradient rather than Canny's edges
    /// (the pieces miss one of the five cards on the dog that LSD's chains find). On the curled sudoku page (outline 0.83), the
    /// pieces' best chain puts a corner 17 px off the marked one, LSD's 3 px; on the photos and scenes
    /// with known corners whose outlines find nothing (the sheet under a stone, the card on horses, the
    /// cards on the dog) the pieces give the same best rectangles as LSD (within 0.8 px), and on none of
    /// the bench's photos is LSD reached for want of a rectangle.
    ///
    /// Only the candidates whose rough support promises the most are fitted, the most promising first.
    /// Fitting moves each corner a bounded distance, which bounds how prominent a candidate can become:
    /// once as many rectangles as asked for are found, one whose bound stays below the last of them and
    /// that could not go before a reported one by enclosing it is skipped, as it could not be reported.
    package func results(in image: VisionImage) throws -> [DetectedRectangle] {
        try options.validate()
        let full = try image.uprightGray()
        let (work, scale) = try full.grayscaled(maximumSide: Self.workingSide)
        let minimumSide = max(8, Double(options.minimumSize) * Double(min(work.width, work.height)))
        let coarse = EdgeFitter(image: GrayLevels(try work.blurred(sigma: 0.7)))
        let fine = EdgeFitter(image: GrayLevels(full), inlierDistance: max(1.5, (scale.width + scale.height) / 2))
        let cornerFitter = CornerFitter(edges: fine)
        let factor = max(scale.width, scale.height)
        let fineRadius = 1.5 * factor + 1
        // How far the sharper fit on the full image moves a corner at most (EdgeFitter.refine's bound).
        let sharpening = factor > 1 ? 3 * fineRadius + 2 : 0
        func toFull(_ shape: Quadrilateral) -> Quadrilateral {
            shape.applying { CGPoint(x: $0.x * scale.width, y: $0.y * scale.height) }
        }
        var found = ProminentRectangles(
            imageSize: CGSize(width: full.width, height: full.height), limit: options.maximumObservations)
        let (search, searchScale) = try work.grayscaled(maximumSide: Self.searchSide)
        let searchFactor = SIMD2(Double(searchScale.width), Double(searchScale.height))
        var tried = DistinctQuadrilaterals(tolerance: 3)
        var wideFits = EdgeFitter.SideFits(radius: 6)
        let leastConfidence = max(Self.minimumSupport, Double(options.minimumConfidence))
        func fit(_ rough: [Quadrilateral]) throws {
            let candidates = rough.filter { isAcceptable($0, minimumSide: minimumSide * 0.8, slack: 10) && tried.insert($0) }
            for shape in rankedForFitting(candidates, on: coarse, imageArea: Double(work.width * work.height)) {
                // The wide fit moves a corner by at most 3 × 6 + 2 pixels of the working copy, the narrow one 3 × 2 + 2.
                let reach = Self.largestArea(of: toFull(shape), moving: 28 * factor + sharpening, cornerFitter: cornerFitter)
                guard found.couldReport(prominence: found.prominence(confidence: 1, area: reach))
                    || found.couldEnclose(confidence: 1, area: reach)
                else { continue }
                // A wide search first (rough corners may be cut by rounding or off by a few pixels), then a narrow
                // one, its sides in the order of their wide support, the weakest first: it ends once the sides fitted
                // leave the candidate no confidence that could pass the checks below, its area being at most `reach`.
                guard let wide = try coarse.refineSides(shape, reusing: &wideFits) else { continue }
                let weakestFirst = wide.support.indices.sorted { wide.support[$0] < wide.support[$1] }
                guard let fit = try coarse.refine(wide.shape, radius: 2, sideOrder: weakestFirst, isPromising: { bound in
                        bound >= leastConfidence
                            && (found.couldReport(prominence: found.prominence(confidence: Float(bound), area: reach))
                                || found.couldEnclose(confidence: Float(bound), area: reach))
                    }),
                    isAcceptable(fit.shape, minimumSide: minimumSide, slack: 0), fit.confidence >= leastConfidence
                else { continue }
                let confidence = Float(fit.confidence)
                var corners = toFull(fit.shape)
                let largest = Self.largestArea(of: corners, moving: sharpening, cornerFitter: cornerFitter)
                guard found.couldReport(prominence: found.prominence(confidence: confidence, area: largest))
                    || found.couldEnclose(confidence: confidence, area: largest)
                else { continue }
                if factor > 1, let sharper = try fine.refine(corners, radius: fineRadius), sharper.support.allSatisfy({ $0 >= 0.5 }) {
                    corners = sharper.shape
                }
                found.insert(DetectedRectangle(corners: try cornerFitter.refine(corners), confidence: confidence))
            }
        }
        let outlines = try QuadrilateralSearch(
            image: search, minimumSide: minimumSide * 0.8 / max(searchFactor.x, searchFactor.y))
        var traced = DistinctQuadrilaterals(tolerance: 3)
        for maps in [QuadrilateralSearch.Maps.edges, .adaptive, .cuts] {
            if maps != .edges && isDecided(found.reported, imageArea: Double(full.width * full.height)) { break }
            let shapes = try outlines.candidates(in: maps, distinctFrom: &traced)
            try fit(shapes.map { $0.applying { CGPoint(x: $0.x * searchFactor.x, y: $0.y * searchFactor.y) } })
        }
        let outlined = !found.reported.isEmpty
        let chains = SegmentChainSearch(
            minimumLength: minimumSide * 0.3, minimumAngle: 80 - Double(options.quadratureTolerance))
        func fitChains(of segments: [LineSegment]) throws {
            try fit(chains.candidates(from: segments.map { LineSegment(start: $0.start * searchFactor, end: $0.end * searchFactor) }))
        }
        let unlimited = options.maximumObservations == 0
        if !outlined {
            try fitChains(of: try outlines.segments(minimumLength: minimumSide * 0.1 / max(searchFactor.x, searchFactor.y)))
        }
        if unlimited || found.reported.isEmpty || outlined && isOpen(found.reported) {
            try fitChains(of: try search.lineSegments())
        }
        return found.reported
    }

    /// Whether `report` leaves room for better rectangles: fewer than asked for, or one below
    /// ``settledConfidence``.
    private func isOpen(_ report: [DetectedRectangle]) -> Bool {
        options.maximumObservations == 0 || report.count < options.maximumObservations
            || report.contains(where: { Double($0.confidence) < Self.settledConfidence })
    }

    /// Whether the outlines traced so far have decided `report`, in an image of `imageArea` pixels:
    /// as many rectangles as asked for, each at least ``settledConfidence`` sure and covering at least
    /// ``decidedShare`` of the image.
    ///
    /// Nothing bounds what the other maps could add, so the rule was set on the rectangles DEV set
    /// (70 MIDV-500 frames, `eval/rectangles_dev.py`), where it ends 30 frames' search at the strong
    /// edges and keeps right at 59 and the mean error at 20.06 px, changing no frame's error by more than
    /// 0.17 px (median 1.07 → 1.10 px; 4 frames closer, 4 further off). Asked again after the adaptive
    /// threshold, it ends 4 more frames' search there, before the gray cuts, changing no report.
    /// Without the share, the strong edges' surest rectangle may be a small one, such as the photo on a card
    /// (31_jpn_drvlic-6, 179 px off), or one inside the card that a gray cut's larger outline outranks
    /// (31_jpn_drvlic-9, 7.0 → 11.2 px, covering 19.9 %); the cards of MIDV-500 cover 17–31 % of their frames.
    /// The confidence is the one that skips the line segments, so that a decided report never leads on to them:
    /// it ends 35 frames' search at the strong edges (30 at 0.9, 22 at 0.95) with the same right and median
    /// and one frame closer (26_hrv_drvlic-3, 6.80 → 6.08 px), and the search of TEST frame 14_deu_id_new-7
    /// (its card 0.89 sure) in two thirds of the instructions (47.6 → 30.9 million).
    func isDecided(_ report: [DetectedRectangle], imageArea: Double) -> Bool {
        !isOpen(report)
            && report.allSatisfy { $0.corners.area >= Self.decidedShare * imageArea }
    }

    /// The candidates worth fitting, the most promising first: ranked by the prominence that their
    /// rough support on the working copy promises, at most ``fittedCandidates(limit:)`` of them.
    ///
    /// A fit costs about 0.7 ms; on a printed grid, a thousand cells and boxes would otherwise be fitted
    /// for the one page around them, which ranks first or near it.
    ///
    /// A rough support is at most 1, so a candidate promises at most √(share of the area): where
    /// there are more candidates than are kept, they are read largest first, and once that bound falls
    /// below the promise of the last one kept, no smaller candidate can be kept and none is read (the
    /// sudoku page's 1,002 LSD chains, most of them cells of the grid, rank in 0.5 ms instead of 3).
    /// The kept candidates and their order are those of ranking every one: ties keep the candidates' order.
    private func rankedForFitting(_ candidates: [Quadrilateral], on fitter: EdgeFitter, imageArea: Double) -> [Quadrilateral] {
        let kept = Self.fittedCandidates(limit: options.maximumObservations)
        // The square of a candidate's rough support times `bound`, the square root of its share of the area.
        func promise(of shape: Quadrilateral, bound: Double) -> Double {
            let support = fitter.roughSupport(of: shape, radius: 4)
            return support * support * bound
        }
        guard candidates.count > kept else {
            return candidates.map { (shape: $0, promise: promise(of: $0, bound: ($0.area / imageArea).squareRoot())) }
                .filter { $0.promise > 0 }
                .sorted { $0.promise > $1.promise }
                .map(\.shape)
        }
        let bySize = candidates.indices.map { (index: $0, bound: (candidates[$0].area / imageArea).squareRoot()) }
            .sorted { $0.bound > $1.bound }
        // (index in `candidates`, promise) of those read, the most promising first, at most `kept`.
        var ranked: [(index: Int, promise: Double)] = []
        for (index, bound) in bySize {
            if ranked.count == kept, let last = ranked.last, bound < last.promise { break }
            let value = promise(of: candidates[index], bound: bound)
            guard value > 0 else { continue }
            let position = ranked.firstIndex { $0.promise < value || $0.promise == value && $0.index > index } ?? ranked.count
            guard position < kept else { continue }
            ranked.insert((index, value), at: position)
            if ranked.count > kept { ranked.removeLast() }
        }
        return ranked.map { candidates[$0.index] }
    }

    /// How many of the best-ranked candidates are fitted when at most `limit` rectangles are reported;
    /// all of them when there is no limit (0). Chains of segments get the same number: fitting only the best
    /// 4 × (limit + 1) of them kept the rectangles DEV set's figures, but on OpenCV's sudoku sample at half
    /// size (the page the Vision example follows in `test_examples.py`) it found a rectangle 0.857 sure with
    /// its top edge 18 px askew instead of the grid, 0.948 sure.
    private static func fittedCandidates(limit: Int) -> Int {
        limit > 0 ? 16 * (limit + 1) : .max
    }

    /// The largest area that `corners` can reach when each moves by at most `move` pixels and the
    /// corner fitter then moves it by at most its reach: a convex shape whose corners move by at most d
    /// stays within the shape grown by d, whose area is at most A + perimeter × d + π d².
    private static func largestArea(of corners: Quadrilateral, moving move: Double, cornerFitter: CornerFitter) -> Double {
        let size = corners.averageSideLengths
        let shorter = Double(min(size.width, size.height)) + 2 * move
        let reach = move + cornerFitter.largestMove(shorterSide: shorter)
        let perimeter = corners.sides.reduce(0) { $0 + hypot(Double($1.end.x - $1.start.x), Double($1.end.y - $1.start.y)) }
        return corners.area + perimeter * reach + .pi * reach * reach
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
        return shape.hasRightAngles(within: tolerance)
    }
}
