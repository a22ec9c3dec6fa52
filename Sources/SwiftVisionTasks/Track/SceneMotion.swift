import Foundation
import SwiftVisionCore

/// How far the scene moved between two frames of a video, in the frames' pixels: the camera's pan and
/// tilt as the image shows them, apart from the tracked object. Measured on gray copies whose longer side
/// is ``side`` pixels, cut into a ``grid``×``grid`` grid: the middle of each cell of the earlier frame is
/// found again near its place in the later one (normalised cross-correlation), and the median of those
/// shifts, over the cells clear of the object's box, is the scene's. The same steps through Python's OpenCV
/// take 2–6 ms for a pair of 640×360 to 1280×720 frames and agree with the median of sparse Lucas–Kanade
/// flow to within 0.5–1.5 px at the median frame of the DEV set's bird2 and dragonbaby (eval/README.md);
/// on wakeboard7's water, which has no one motion, 5 px. Its unit is one pixel of the gray copy: a shift
/// below that is no shift. The tracker measures it only on the frame its box reaches the frame's edge.
struct SceneMotion {
    /// The longer side of the gray copies the motion is measured on.
    static let side = 320
    /// Cells per side of the grid.
    static let grid = 4

    /// The shift, and the smallest shift the measure can tell from none (one pixel of the gray copy), both
    /// in the frames' pixels.
    let shift: (dx: Double, dy: Double)
    let resolution: Double

    /// The scene's shift from `previous` to `current` (BGR frames of one size), leaving out the cells
    /// that `box` (the object, in the frames' pixels) overlaps; nil when every cell does or the frames'
    /// sizes differ.
    init?(from previous: PixelBuffer, to current: PixelBuffer, leavingOut box: CGRect) throws {
        guard previous.width == current.width, previous.height == current.height else { return nil }
        let (before, scale) = try previous.grayscaled(maximumSide: Self.side)
        let (after, _) = try current.grayscaled(maximumSide: Self.side)
        let cell = (width: before.width / Self.grid, height: before.height / Self.grid)
        // The middle half of a cell is searched for up to a quarter of the cell's longer side away.
        let piece = (width: cell.width / 2, height: cell.height / 2), reach = max(cell.width, cell.height) / 4
        guard piece.width >= 4, piece.height >= 4 else { return nil }
        let object = CGRect(
            x: box.minX / scale.width, y: box.minY / scale.height, width: box.width / scale.width, height: box.height / scale.height)
        var shifts: [(x: Double, y: Double)] = []
        for column in 0..<Self.grid {
            for row in 0..<Self.grid {
                let origin = (x: column * cell.width + cell.width / 4, y: row * cell.height + cell.height / 4)
                guard !object.intersects(CGRect(x: origin.x, y: origin.y, width: piece.width, height: piece.height)) else { continue }
                let low = (x: max(0, origin.x - reach), y: max(0, origin.y - reach))
                let high = (x: min(after.width, origin.x + piece.width + reach), y: min(after.height, origin.y + piece.height + reach))
                let pattern = try before.cropped(x: origin.x, y: origin.y, width: piece.width, height: piece.height)
                let window = try after.cropped(x: low.x, y: low.y, width: high.x - low.x, height: high.y - low.y)
                let match = try window.bestMatch(of: pattern)
                shifts.append((Double(low.x + match.x - origin.x), Double(low.y + match.y - origin.y)))
            }
        }
        guard !shifts.isEmpty else { return nil }
        shift = (Self.median(shifts.map(\.x)) * scale.width, Self.median(shifts.map(\.y)) * scale.height)
        resolution = max(scale.width, scale.height)
    }

    /// Whether a box that moved by `motion` (its centre's shift, frame pixels) over the same two frames
    /// moved with the scene: the scene moved, and the box's motion is nearer the scene's than standing
    /// still, so the box kept its place in the scene more than its place in the frame (a tracker carried
    /// off by the background of a camera that follows the object) — an object that leaves a still
    /// camera's view, or outruns a panning one, moves against the scene.
    func carries(_ motion: (dx: Double, dy: Double)) -> Bool {
        let scene = hypot(shift.dx, shift.dy)
        return scene >= resolution && hypot(motion.dx - shift.dx, motion.dy - shift.dy) < hypot(motion.dx, motion.dy)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
