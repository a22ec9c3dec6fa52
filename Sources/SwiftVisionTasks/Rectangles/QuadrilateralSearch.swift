import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Rough quadrilaterals traced in binary maps of a gray image: outlines that simplify to four
/// corners, directly or through their convex hull (which cuts rounded corners).
///
/// Several maps are searched because no single one separates every object from its background:
/// strong and faint Canny edges; the image cut at several gray levels, which parts a bright page
/// from the clutter its edges touch; and an adaptive threshold, which follows uneven light.
struct QuadrilateralSearch {
    /// The gray image searched.
    let image: PixelBuffer
    /// Outlines whose bounding box has a shorter side below this many pixels are skipped.
    let minimumSide: Double
    /// Gray levels at which the image is cut.
    static let levels = stride(from: 48.0, through: 208, by: 40)

    /// Distinct candidates, corners ordered from the top left clockwise.
    func candidates() throws -> [Quadrilateral] {
        let smooth = try image.blurred(sigma: 1)
        let block = max(15, min(image.width, image.height) / 12)
        var maps = [
            try smooth.cannyEdges(low: 40, high: 120).morphology(.dilate, size: 3),
            try smooth.cannyEdges(low: 12, high: 36).morphology(.dilate, size: 3),
            try smooth.adaptiveThreshold(blockSize: block, offset: 6, inverted: true),
        ]
        for level in Self.levels { maps.append(try smooth.thresholded(at: level)) }
        var found = DistinctQuadrilaterals(tolerance: 3)
        for map in maps {
            for contour in try map.contours() where spans(contour) {
                for shape in try quadrilaterals(approximating: contour) { found.insert(shape) }
            }
        }
        return found.shapes
    }

    /// Whether the outline's bounding box is at least `minimumSide` in both directions.
    private func spans(_ contour: PixelPolygon) -> Bool {
        let bounds = contour.bounds
        return contour.points.count >= 4 && Double(min(bounds.width, bounds.height)) > minimumSide
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
