import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

extension VisionImage {
    /// The part of the image inside `region` — Vision's `regionOfInterest`, normalised with the
    /// origin at the lower left — and where that part's top-left corner lies in upright pixels.
    func region(ofInterest region: CGRect) throws -> (image: VisionImage, origin: CGPoint) {
        let whole = CGRect(x: 0, y: 0, width: 1, height: 1)
        guard !region.isNull, region.width > 0, region.height > 0, whole.contains(region.standardized) else {
            throw VisionTaskError.invalidOption("regionOfInterest \(region) must lie within (0, 0, 1, 1)")
        }
        guard region.standardized != whole else { return (self, .zero) }
        // An edge that float rounding puts a hair off a whole pixel (a region made from pixels, such as
        // 380/1080 of 1080) is that pixel, so that the cut does not grow by one.
        func snapped(_ edge: CGFloat) -> CGFloat { abs(edge - edge.rounded()) < 1e-6 ? edge.rounded() : edge }
        let raw = region.converted(from: .normalizedLowerLeft, to: .pixels, imageSize: size)
        let (minX, minY) = (snapped(raw.minX), snapped(raw.minY))
        let pixels = CGRect(x: minX, y: minY, width: snapped(raw.maxX) - minX, height: snapped(raw.maxY) - minY)
        let part = try upright().cropped(to: pixels)
        let origin = CGPoint(x: max(0, pixels.minX.rounded(.down)), y: max(0, pixels.minY.rounded(.down)))
        return (part, origin)
    }
}
