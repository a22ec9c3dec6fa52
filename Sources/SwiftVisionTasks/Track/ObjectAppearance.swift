import Foundation
import SwiftVisionCore

/// What a tracked object looked like when it was seeded: its colour content scaled so its longer side is
/// ``templateSide`` pixels. Judges a box by the normalised cross-correlation of its content with that
/// template, and searches a region of a frame, at several scales, for the place that looks most alike.
struct ObjectAppearance {
    /// The longer side of the template, in pixels.
    static let templateSide = 40.0
    /// The box sizes tried by a search, relative to the last box.
    static let searchScales = [0.9, 1.0, 1.12]
    /// The box sizes tried for an object the tracker may have left for what hid it (its box looks little
    /// like the seed): it may have gone farther meanwhile. Set on the recovery fixtures (no `make eval`
    /// sequence changes with it): without the smaller sizes the chick, which shrinks while hidden, is on
    /// the object in 0.854 of its visible frames at the fast level; with 0.7 the box and cup fixtures'
    /// backgrounds gave lookalikes at 0.65 while they were hidden.
    static let hiddenSearchScales = [0.75, 0.85, 1.0, 1.12]
    /// The box sizes tried for a lost object, which may have come nearer or gone farther while it was lost.
    static let lostSearchScales = [0.7, 0.8, 0.9, 1.0, 1.12, 1.25, 1.4]
    /// How much a searched box of another size loses in similarity against one of the last box's size.
    static let resizePenalty = 0.02

    private let template: PixelBuffer

    /// The appearance of `box` (whole pixels, inside the frame) of the BGR `frame`.
    init(frame: PixelBuffer, box: CGRect) throws {
        let factor = Self.templateSide / max(box.width, box.height)
        template = try frame.cropped(x: Int(box.minX), y: Int(box.minY), width: Int(box.width), height: Int(box.height))
            .resized(width: max(4, Int((box.width * factor).rounded())), height: max(4, Int((box.height * factor).rounded())))
    }

    /// How much the content of `box` in the BGR `frame` looks like the seed, −1…1: the part of the box
    /// inside the frame against the same part of the seed; −1 when less than half of the box is inside.
    func similarity(in frame: PixelBuffer, box: CGRect) throws -> Double {
        let inside = box.integral.intersection(CGRect(x: 0, y: 0, width: frame.width, height: frame.height))
        guard !inside.isNull, inside.width * inside.height >= 0.5 * box.width * box.height else { return -1 }
        let (scaleX, scaleY) = (Double(template.width) / box.width, Double(template.height) / box.height)
        let part = CGRect(
            x: (inside.minX - box.minX) * scaleX, y: (inside.minY - box.minY) * scaleY, width: inside.width * scaleX,
            height: inside.height * scaleY
        ).integral.intersection(CGRect(x: 0, y: 0, width: template.width, height: template.height))
        guard part.width >= 4, part.height >= 4 else { return -1 }
        let seed = try template.cropped(x: Int(part.minX), y: Int(part.minY), width: Int(part.width), height: Int(part.height))
        let content = try frame.cropped(x: Int(inside.minX), y: Int(inside.minY), width: Int(inside.width), height: Int(inside.height))
            .resized(width: seed.width, height: seed.height)
        return try seed.correlation(with: content)
    }

    /// A part of the seed to search for: the whole object, or one of its halves, which is all of an object
    /// that is coming out from behind something else.
    enum Part {
        case whole, left, right, top, bottom

        /// The halves.
        static let halves: [Part] = [.left, .right, .top, .bottom]

        /// The part's rectangle in a `width`×`height` template.
        func rect(width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
            switch self {
            case .whole: (0, 0, width, height)
            case .left: (0, 0, width / 2, height)
            case .right: (width - width / 2, 0, width / 2, height)
            case .top: (0, 0, width, height / 2)
            case .bottom: (0, height - height / 2, width, height / 2)
            }
        }
    }

    /// The box around `box` (at most `radius` pixels away on each side, any of `scales`) whose
    /// content in the BGR `frame` looks most like one of the seed's `parts`, with that similarity; the box
    /// is the whole object's, placed by where the part was found. Nil when no box of those sizes fits in
    /// the frame. Each scale's search region is cut and resized once for all the parts.
    func search(
        in frame: PixelBuffer, around box: CGRect, radius: Double, scales: [Double] = searchScales, parts: [Part] = [.whole]
    ) throws -> (box: CGRect, score: Double)? {
        let bounds = CGRect(x: 0, y: 0, width: frame.width, height: frame.height)
        let patterns = try parts.map { part in
            let piece = part.rect(width: template.width, height: template.height)
            let pattern = part == .whole ? template : try template.cropped(x: piece.x, y: piece.y, width: piece.width, height: piece.height)
            return (piece, pattern)
        }
        var best: (box: CGRect, score: Double)?
        for scale in scales {
            let size = CGSize(width: box.width * scale, height: box.height * scale)
            let factor = Double(template.width) / size.width
            let window = box.insetBy(dx: (box.width - size.width) / 2 - radius, dy: (box.height - size.height) / 2 - radius)
                .intersection(bounds).integral.intersection(bounds)
            guard !window.isNull, window.width >= size.width, window.height >= size.height else { continue }
            let scaledWidth = Int((window.width * factor).rounded()), scaledHeight = Int((window.height * factor).rounded())
            guard scaledWidth >= template.width, scaledHeight >= template.height else { continue }
            let region = try frame.cropped(x: Int(window.minX), y: Int(window.minY), width: Int(window.width), height: Int(window.height))
                .resized(width: scaledWidth, height: scaledHeight)
            for (piece, pattern) in patterns {
                let match = try region.bestMatch(of: pattern)
                // Another size must look clearly more alike than the last one to replace it.
                let score = scale == 1 ? match.score : match.score - Self.resizePenalty
                if score > best?.score ?? -.infinity {
                    let origin = CGPoint(
                        x: window.minX + Double(match.x - piece.x) / factor, y: window.minY + Double(match.y - piece.y) / factor)
                    best = (CGRect(origin: origin, size: size).integral.intersection(bounds), score)
                }
            }
        }
        return best
    }
}
