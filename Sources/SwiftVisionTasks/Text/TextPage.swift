import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// A gray image prepared for Tesseract and the way back to the upright image's pixels: turned by
/// quarter turns, its light flattened, scaled.
struct TextPage {
    /// The prepared pixels.
    var gray: PixelBuffer
    /// Clockwise quarter turns applied to the upright image.
    var quarterTurns = 0
    /// Prepared pixels per upright pixel.
    var scale = 1.0
    /// The upright image's size.
    let uprightSize: CGSize

    init(upright gray: PixelBuffer) {
        self.gray = gray
        uprightSize = CGSize(width: gray.width, height: gray.height)
    }

    /// The page turned clockwise by `turns` quarter turns.
    func turned(by turns: Int) throws -> TextPage {
        let turns = ((turns % 4) + 4) % 4
        guard turns != 0 else { return self }
        var page = self
        page.gray = try VisionImage(buffer: gray, orientation: [.up, .right, .down, .left][turns]).upright().buffer
        page.quarterTurns = (quarterTurns + turns) % 4
        return page
    }

    /// The page with uneven light evened out: each pixel divided by the local paper brightness,
    /// estimated by closing (which removes dark strokes) and blurring a reduced copy.
    func flattened() throws -> TextPage {
        let (small, _) = try gray.grayscaled(maximumSide: 512)
        let kernel = max(5, min(small.width, small.height) / 16) | 1
        let paper = try small.morphology(.close, size: kernel).blurred(sigma: Double(kernel) / 2)
            .resized(width: gray.width, height: gray.height)
        var page = self
        page.gray = try gray.divided(by: paper, scale: 255)
        return page
    }

    /// The page scaled by `factor`.
    func scaled(by factor: Double) throws -> TextPage {
        var page = self
        let width = max(1, Int((Double(gray.width) * factor).rounded()))
        let height = max(1, Int((Double(gray.height) * factor).rounded()))
        page.gray = try gray.resized(width: width, height: height, sharp: true)
        page.scale = scale * Double(width) / Double(gray.width)
        return page
    }

    /// A box in the prepared pixels as a box in the upright image's pixels.
    func uprightRect(_ box: CGRect) -> CGRect {
        let unscaled = CGRect(x: box.minX / scale, y: box.minY / scale, width: box.width / scale, height: box.height / scale)
        // Undo the turns one at a time; before each clockwise quarter turn the page was `size` pixels.
        var rect = unscaled
        var size = quarterTurns % 2 == 0 ? uprightSize : CGSize(width: uprightSize.height, height: uprightSize.width)
        for _ in 0..<quarterTurns {
            size = CGSize(width: size.height, height: size.width)
            // A clockwise turn took (x, y) in a page `size` wide and high to (size.height − y, x).
            rect = CGRect(x: rect.minY, y: size.height - rect.maxX, width: rect.height, height: rect.width)
        }
        return rect
    }
}
