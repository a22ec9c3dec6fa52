import CVisionShim
import Foundation

/// Where a small image looks most alike in a larger one, for appearance checks of tracked objects.
extension PixelBuffer {
    /// The top-left corner at which `template` (same format, no larger) correlates best with the buffer,
    /// and that normalised cross-correlation, −1…1 (OpenCV's `TM_CCOEFF_NORMED`); flat windows score 0.
    package func bestMatch(of template: PixelBuffer) throws -> (x: Int, y: Int, score: Double) {
        guard template.format == format, template.width <= width, template.height <= height else {
            throw ImageError.invalidRegion(
                "a \(template.width)×\(template.height) \(template.format) template cannot be matched in a "
                    + "\(width)×\(height) \(format) image")
        }
        let columns = width - template.width + 1, rows = height - template.height + 1
        var scores = [Float](repeating: 0, count: columns * rows)
        try scores.withUnsafeMutableBytes { raw in
            let destination = SVImageView(
                base: raw.baseAddress!, width: columns, height: rows, bytesPerRow: columns * 4, channels: 1, depth: SV_DEPTH_F32)
            try withView { image in
                try template.withView { patch in try shimCall { sv_match_template(image, patch, destination) } }
            }
        }
        var best = (index: 0, score: -Float.infinity)
        for (index, score) in scores.enumerated() where score.isFinite && score > best.score {
            best = (index, score)
        }
        return (best.index % columns, best.index / columns, best.score.isFinite ? Double(best.score) : 0)
    }
}
