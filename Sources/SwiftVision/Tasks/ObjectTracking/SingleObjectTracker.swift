import CVisionShim
import Foundation

/// One of OpenCV contrib's single-object trackers following a box from frame to frame. The object is
/// lost when the tracker finds no match or most of the box leaves the frame; the confidence is the
/// normalised cross-correlation of the box's content with the first frame's (it falls as the object
/// turns, deforms or is covered).
/// Not safe for concurrent use: ``SequenceRequestHandler`` serialises access.
public final class SingleObjectTracker: @unchecked Sendable {
    private let tracker: OpaquePointer
    private let template: PixelBuffer
    private(set) var box: CGRect
    private(set) var isLost = false

    /// Side of the square the box's content is scaled to for the confidence.
    private static let templateSide = 32

    /// Starts a tracker of `kind` (KCF or CSRT) on `box` (upright pixels) of `image`.
    init(kind: SVTrackerKind, image: VisionImage, box: CGRect) throws {
        let frame = try Self.frame(image)
        let seed = box.integral.intersection(CGRect(x: 0, y: 0, width: frame.width, height: frame.height))
        guard !seed.isNull, seed.width >= 2, seed.height >= 2 else {
            throw ImageError.invalidRegion("the box to track \(box) is not inside the \(frame.width)×\(frame.height) frame")
        }
        guard let tracker = frame.buffer.withView({ view in
            sv_tracker_create(kind, view, Int32(seed.minX), Int32(seed.minY), Int32(seed.width), Int32(seed.height))
        }) else {
            throw ImageError.processingFailed(String(cString: sv_last_error()))
        }
        self.tracker = tracker
        self.box = seed
        template = try Self.patch(of: frame, in: seed)
    }

    /// Follows the object into `image`; returns its box and confidence (0 once lost).
    func update(with image: VisionImage) throws -> (box: CGRect, confidence: Float) {
        guard !isLost else { return (box, 0) }
        let frame = try Self.frame(image)
        var x: Int32 = 0, y: Int32 = 0, width: Int32 = 0, height: Int32 = 0
        let status = frame.buffer.withView { sv_tracker_update(tracker, $0, &x, &y, &width, &height) }
        guard status >= 0 else { throw ImageError.processingFailed(String(cString: sv_last_error())) }
        let bounds = CGRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let found = CGRect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
        let visible = found.intersection(bounds)
        // Lost when the tracker says so, or most of the box has left the frame.
        guard status == 1, !visible.isNull, visible.width * visible.height >= 0.5 * found.width * found.height else {
            isLost = true
            return (box, 0)
        }
        var score = 0.0
        let patch = try Self.patch(of: frame, in: visible)
        try template.withView { first in try patch.withView { second in try shimCall { sv_correlation(first, second, &score) } } }
        box = found
        return (found, Float(max(0, min(1, score))))
    }

    private static func frame(_ image: VisionImage) throws -> VisionImage {
        try image.upright().converted(to: .bgr)
    }

    private static func patch(of frame: VisionImage, in box: CGRect) throws -> PixelBuffer {
        try frame.cropped(to: box).resized(width: templateSide, height: templateSide).converted(to: .gray).buffer
    }

    deinit {
        sv_tracker_release(tracker)
    }
}
