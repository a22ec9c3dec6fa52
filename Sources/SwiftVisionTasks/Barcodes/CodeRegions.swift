import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Places that may hold a matrix code: compact blobs where edges crowd together, found in a
/// reduced copy by closing the gaps between Canny edges, that fill at least half their box.
///
/// zxing-cpp 1.4 as Debian builds it looks for Data Matrix and Aztec symbols only on lines
/// through the middle of the image, so the scanner reads these places one by one.
enum CodeRegions {
    /// Blobs covering less of their bounding box than this are not taken for codes.
    static let minimumFill = 0.5

    /// Up to `limit` rectangles in `gray`'s pixels, the largest first, each widened to include a quiet zone.
    static func proposals(in gray: PixelBuffer, limit: Int) throws -> [CGRect] {
        let (small, scale) = try gray.grayscaled(maximumSide: 640)
        let blobs = try small.cannyEdges(low: 50, high: 150).morphology(.close, size: 5)
            .morphology(.open, size: 3)
        let shorter = Double(min(small.width, small.height))
        var boxes: [CGRect] = []
        for contour in try blobs.contours() {
            let box = contour.bounds
            let (side, longSide) = (min(box.width, box.height), max(box.width, box.height))
            // Codes fill their box; clutter merged into one blob sprawls.
            guard side >= 6, longSide <= 0.6 * shorter, longSide <= 4 * side,
                contour.area >= Self.minimumFill * Double(box.width * box.height)
            else { continue }
            boxes.append(box)
        }
        let bounds = CGRect(x: 0, y: 0, width: gray.width, height: gray.height)
        return boxes.sorted { $0.width * $0.height > $1.width * $1.height }.prefix(limit).map { box in
            let margin = 0.3 * max(box.width, box.height) + 4
            let widened = box.insetBy(dx: -margin, dy: -margin)
            return CGRect(
                x: widened.minX * scale.width, y: widened.minY * scale.height, width: widened.width * scale.width,
                height: widened.height * scale.height
            ).intersection(bounds).integral
        }
    }
}
