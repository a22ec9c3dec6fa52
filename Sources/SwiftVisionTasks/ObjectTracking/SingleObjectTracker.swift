import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// One of OpenCV contrib's single-object trackers following a box from frame to frame. The object is
/// lost when the tracker finds no match or most of the box leaves the frame; the confidence is the
/// normalised cross-correlation of the box's content with the first frame's (it falls as the object
/// turns, deforms or is covered).
/// Not safe for concurrent use: the task runner serialises the frames of a stream.
package final class SingleObjectTracker: @unchecked Sendable {
    private let tracker: OpenCVTracker
    private let template: PixelBuffer
    private(set) var box: CGRect
    private(set) var isLost = false

    /// Side of the square the box's content is scaled to for the confidence.
    private static let templateSide = 32

    /// Starts a tracker of `kind` (KCF or CSRT) on `box` (upright pixels) of `image`.
    init(kind: OpenCVTracker.Kind, image: VisionImage, box: CGRect) throws {
        let frame = try Self.frame(image)
        let seed = box.integral.intersection(CGRect(x: 0, y: 0, width: frame.width, height: frame.height))
        guard !seed.isNull, seed.width >= 2, seed.height >= 2 else {
            throw ImageError.invalidRegion(
                "the box to track (x \(box.minX), y \(box.minY), width \(box.width), height \(box.height)) is not inside the "
                    + "\(frame.width)×\(frame.height) frame")
        }
        tracker = try OpenCVTracker(kind: kind, frame: frame.buffer, box: seed)
        self.box = seed
        template = try Self.patch(of: frame, in: seed)
    }

    /// Follows the object into `image`; returns its box and confidence (0 once lost).
    func update(with image: VisionImage) throws -> (box: CGRect, confidence: Float) {
        guard !isLost else { return (box, 0) }
        let frame = try Self.frame(image)
        let bounds = CGRect(x: 0, y: 0, width: frame.width, height: frame.height)
        // Lost when the tracker says so, or most of the box has left the frame.
        guard let found = try tracker.update(with: frame.buffer), case let visible = found.intersection(bounds),
            !visible.isNull, visible.width * visible.height >= 0.5 * found.width * found.height
        else {
            isLost = true
            return (box, 0)
        }
        let score = try template.correlation(with: try Self.patch(of: frame, in: visible))
        box = found
        return (found, Float(max(0, min(1, score))))
    }

    private static func frame(_ image: VisionImage) throws -> VisionImage {
        try image.upright().converted(to: .bgr)
    }

    private static func patch(of frame: VisionImage, in box: CGRect) throws -> PixelBuffer {
        try frame.cropped(to: box).resized(width: templateSide, height: templateSide).converted(to: .gray).buffer
    }
}
