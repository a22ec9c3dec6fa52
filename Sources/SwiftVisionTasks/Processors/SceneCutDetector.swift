import Foundation
import SwiftVisionCore

/// Finds hard cuts between consecutive frames of a video, so that trackers end their tracks there
/// instead of handing an ID to whatever appears where a face or object was.
///
/// Each frame is shrunk to a 48×27 gray thumbnail, split into a 3×3 grid, and each cell's 16-bin
/// histogram compared with the previous frame's: the distance is the mean over the cells of half the
/// L1 distance of the normalised histograms (0 same, 1 disjoint). A camera that moves changes the
/// thumbnail but hardly its cells' histograms; a cut changes both. Measured on the sample photos
/// (`SceneCutTests`): pans of 4–60 pixels a frame stay below 0.18, any cut between two of eleven
/// different photos is at least 0.42, so the threshold sits at 0.3.
package struct SceneCutDetector: Sendable {
    static let thumbnailSize = (width: 48, height: 27)
    static let grid = 3
    static let bins = 16
    /// Distances above this are cuts.
    package static let threshold = 0.3

    private var previous: [Double]?
    /// The cuts found so far.
    package private(set) var cuts = 0

    package init() {}

    /// Whether `image` starts a new shot, compared with the frame before it (never for the first frame).
    package mutating func isCut(_ image: VisionImage) throws -> Bool {
        let histograms = try Self.histograms(of: image)
        defer { previous = histograms }
        guard let previous, Self.distance(previous, histograms) > Self.threshold else { return false }
        cuts += 1
        return true
    }

    /// The distance of two frames, 0–1.
    package static func distance(_ first: VisionImage, _ second: VisionImage) throws -> Double {
        distance(try histograms(of: first), try histograms(of: second))
    }

    private static func distance(_ first: [Double], _ second: [Double]) -> Double {
        zip(first, second).reduce(0) { $0 + abs($1.0 - $1.1) } / 2 / Double(grid * grid)
    }

    /// The normalised histograms of the grid's cells, one after another.
    private static func histograms(of image: VisionImage) throws -> [Double] {
        let gray = try image.resized(width: thumbnailSize.width, height: thumbnailSize.height).uprightGray()
        var counts = [Double](repeating: 0, count: grid * grid * bins)
        var cellSizes = [Double](repeating: 0, count: grid * grid)
        for y in 0..<gray.height {
            let row = y * grid / gray.height
            for x in 0..<gray.width {
                let cell = row * grid + x * grid / gray.width
                counts[cell * bins + Int(gray.bytes[y * gray.bytesPerRow + x]) * bins / 256] += 1
                cellSizes[cell] += 1
            }
        }
        return counts.indices.map { counts[$0] / cellSizes[$0 / bins] }
    }
}
