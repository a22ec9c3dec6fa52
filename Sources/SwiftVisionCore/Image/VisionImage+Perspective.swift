import Foundation

extension VisionImage {
    /// The region inside `quadrilateral` (upright pixels) warped into an upright rectangle, as a
    /// document scanner does after finding a page: the corners become the output's corners.
    ///
    /// Without a size the output takes the longer of each pair of opposite sides.
    public func perspectiveCorrected(_ quadrilateral: Quadrilateral, size: CGSize? = nil, limits: ImageLimits = .default)
        throws -> VisionImage
    {
        guard quadrilateral.isConvex, quadrilateral.area >= 1 else {
            throw ImageError.invalidRegion("the quadrilateral \(quadrilateral) is not convex")
        }
        let lengths = quadrilateral.sides.map { hypot(Double($0.end.x - $0.start.x), Double($0.end.y - $0.start.y)) }
        let width = Int((size?.width ?? max(lengths[0], lengths[2])).rounded())
        let height = Int((size?.height ?? max(lengths[1], lengths[3])).rounded())
        try limits.check(width: width, height: height)
        let target = Quadrilateral(rect: CGRect(x: 0, y: 0, width: width - 1, height: height - 1))
        let homography = try Homography(from: quadrilateral, to: target)
        let pixels = try upright().buffer.interleaved().warped(by: homography, width: width, height: height)
        return VisionImage(buffer: pixels, orientation: .up, sourceFormat: sourceFormat)
    }
}
