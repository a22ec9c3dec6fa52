import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// One of OpenCV contrib's single-object trackers following a box from frame to frame, checked against
/// the object's appearance at the seed (``ObjectAppearance``). Each frame the tracker's box is judged by
/// how much its content looks like the seed; when the object moved faster than the tracker follows,
/// a search around the last box finds it and restarts the tracker there. When neither finds it, the
/// object is lost: the box stays where it was last seen, the confidence is 0, and each later frame
/// searches a wider region (soon the whole frame) until the object looks like its seed again. An object
/// partly hidden by something else is found by the half of it that shows, and reported with half that
/// half's similarity.
/// Not safe for concurrent use: the task runner serialises the frames of a stream.
package final class SingleObjectTracker: @unchecked Sendable {
    /// The similarity to the seed below which a tracked box is not trusted: the object counts as lost
    /// unless a search finds it. Reported confidences of tracked objects are at least this, except for an
    /// object leaving the frame, which the tracker alone follows (with its lower similarity), and an object
    /// found by one of its halves.
    package static let confidenceThreshold: Float = 0.5
    /// The similarity a searched box needs to take over from the tracker or to find a lost object again.
    static let reacquisitionThreshold = 0.65
    /// How much more alike a searched box must look than the tracker's to replace it.
    static let searchMargin = 0.1
    /// The similarity one half of the seed needs to place an object whose other half is hidden. A half is
    /// less distinctive than the whole, so the bar is higher: on the recovery videos a half scored at most
    /// 0.71 anywhere while its object was fully hidden, and 0.77–0.97 on the object coming out from
    /// under the occluder.
    static let partThreshold = 0.85

    private let kind: OpenCVTracker.Kind
    private let appearance: ObjectAppearance
    private var tracker: OpenCVTracker
    private(set) var box: CGRect
    /// The object's whole size: that of the last box wholly inside the frame. A box the frame's edge cuts
    /// is narrower than the object, and a search for that shape would neither find the object nor be cheap
    /// (the template is scaled to the box).
    private var objectSize: CGSize
    private(set) var isLost = false
    /// Frames since the object was lost.
    private var framesLost = 0

    /// Starts a tracker of `kind` (KCF or CSRT) on `box` (upright pixels) of `image`.
    init(kind: OpenCVTracker.Kind, image: VisionImage, box: CGRect) throws {
        let frame = try Self.frame(image)
        let seed = box.integral.intersection(CGRect(x: 0, y: 0, width: frame.width, height: frame.height))
        guard !seed.isNull, seed.width >= 2, seed.height >= 2 else {
            throw ImageError.invalidRegion(
                "the box to track (x \(box.minX), y \(box.minY), width \(box.width), height \(box.height)) is not inside the "
                    + "\(frame.width)×\(frame.height) frame")
        }
        self.kind = kind
        tracker = try OpenCVTracker(kind: kind, frame: frame.buffer, box: seed)
        appearance = try ObjectAppearance(frame: frame.buffer, box: seed)
        self.box = seed
        objectSize = seed.size
    }

    /// Follows the object into `image`; returns its box (the last known one while lost) and confidence
    /// (its similarity to the seed, 0 while lost).
    func update(with image: VisionImage) throws -> (box: CGRect, confidence: Float) {
        let frame = try Self.frame(image)
        var tracked: (box: CGRect, score: Double)?
        if !isLost, let found = try tracker.update(with: frame.buffer), isPlausible(found) {
            tracked = (found, try appearance.similarity(in: frame.buffer, box: found))
        }
        let trackedScore = tracked?.score ?? -1
        if let tracked, trackedScore >= Self.reacquisitionThreshold + Self.searchMargin {
            return follow(tracked, in: frame)
        }
        let whole = CGRect(
            x: box.midX - objectSize.width / 2, y: box.midY - objectSize.height / 2, width: objectSize.width,
            height: objectSize.height)
        let radius = max(whole.width, whole.height) * Double(1 + framesLost)
        let scales = isLost ? ObjectAppearance.lostSearchScales : ObjectAppearance.searchScales
        if let searched = try appearance.search(in: frame.buffer, around: whole, radius: radius, scales: scales),
            searched.score >= Self.reacquisitionThreshold, searched.score > trackedScore + Self.searchMargin
        {
            tracker = try OpenCVTracker(kind: kind, frame: frame.buffer, box: searched.box)
            return follow(searched, in: frame)
        }
        if let tracked, trackedScore >= Double(Self.confidenceThreshold) || touchesEdge(tracked.box, of: frame) {
            return follow(tracked, in: frame)
        }
        if let half = try appearance.search(
            in: frame.buffer, around: whole, radius: radius, scales: scales, parts: ObjectAppearance.Part.halves),
            half.score >= Self.partThreshold
        {
            tracker = try OpenCVTracker(kind: kind, frame: frame.buffer, box: half.box)
            return follow((half.box, half.score / 2), in: frame)
        }
        isLost = true
        framesLost += 1
        return (box, 0)
    }

    /// Takes `found` as the object's place.
    private func follow(_ found: (box: CGRect, score: Double), in frame: VisionImage) -> (box: CGRect, confidence: Float) {
        box = found.box
        if !touchesEdge(found.box, of: frame) { objectSize = found.box.size }
        isLost = false
        framesLost = 0
        return (found.box, Float(max(0, min(1, found.score))))
    }

    /// Whether the tracker's `found` box keeps roughly the last box's size (a tracker that lost the
    /// object may shrink or blow its box up).
    private func isPlausible(_ found: CGRect) -> Bool {
        let ratio = (found.width * found.height) / (box.width * box.height)
        return ratio > 0.5 && ratio < 2
    }

    /// Whether `box` reaches the edge of `frame`, where an object leaving the frame cannot be searched
    /// for whole: there the tracker alone follows it while at least half of it is inside.
    private func touchesEdge(_ box: CGRect, of frame: VisionImage) -> Bool {
        box.minX <= 0 || box.minY <= 0 || box.maxX >= Double(frame.width) || box.maxY >= Double(frame.height)
    }

    private static func frame(_ image: VisionImage) throws -> VisionImage {
        try image.upright().converted(to: .bgr)
    }
}
