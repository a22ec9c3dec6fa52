import CVisionShim
import Foundation

/// Compositing with a confidence mask (1 = foreground, such as a person): a tinted overlay, and the
/// background blurred or replaced. A mask of another size than the canvas (a model-size mask) is
/// first scaled to it bilinearly; confidences between 0 and 1 blend the two sides smoothly.
extension ImageCanvas {
    /// Tints the canvas by `mask`: each pixel moves towards `color` by `opacity` × its confidence.
    public mutating func drawMask(_ mask: FloatPlane, color: DrawingColor = .blue, opacity: Double = 0.5) throws {
        let weights = try fitted(mask).scaled(by: Float(min(max(opacity, 0), 1)))
        var components = color.bgra
        let tint = try PixelBuffer.make(format: .bgr, width: image.width, height: image.height) { destination in
            try shimCall { sv_fill(destination, &components) }
        }
        try composite(over: tint, weights: weights, foregroundFirst: false)
    }

    /// Keeps the foreground of `mask` and puts `background` behind it: the background is scaled to
    /// cover the canvas (its aspect ratio kept, the overflow cut equally from both sides).
    public mutating func replaceBackground(keeping mask: FloatPlane, with background: VisionImage) throws {
        let backdrop = try background.upright().converted(to: .bgr).buffer
        let scale = max(Double(image.width) / Double(backdrop.width), Double(image.height) / Double(backdrop.height))
        let width = max(image.width, Int((Double(backdrop.width) * scale).rounded(.up)))
        let height = max(image.height, Int((Double(backdrop.height) * scale).rounded(.up)))
        let covering = try backdrop.resized(width: width, height: height)
            .cropped(x: (width - image.width) / 2, y: (height - image.height) / 2, width: image.width, height: image.height)
        try composite(over: covering, weights: try fitted(mask), foregroundFirst: true)
    }

    /// Keeps the foreground of `mask` sharp and blurs the rest with a Gaussian of `sigma` pixels
    /// (by default 1/60 of the shorter side). Large blurs run on a smaller copy, which looks the same.
    public mutating func blurBackground(keeping mask: FloatPlane, sigma: Double? = nil) throws {
        let sigma = max(0.5, sigma ?? Double(min(image.width, image.height)) / 60)
        let pixels = try image.buffer.interleaved()
        let factor = max(1, Int(sigma / 4))
        let blurred: PixelBuffer
        if factor > 1 {
            let small = try pixels.resized(width: max(1, pixels.width / factor), height: max(1, pixels.height / factor))
            blurred = try small.blurred(sigma: sigma / Double(factor)).resized(width: pixels.width, height: pixels.height)
        } else {
            blurred = try pixels.blurred(sigma: sigma)
        }
        try composite(over: blurred, weights: try fitted(mask), foregroundFirst: true)
    }

    /// `mask` at the canvas size.
    private func fitted(_ mask: FloatPlane) throws -> FloatPlane {
        try mask.resized(width: image.width, height: image.height)
    }

    /// canvas × w + other × (1 − w) when `foregroundFirst`, else other × w + canvas × (1 − w).
    private mutating func composite(over other: PixelBuffer, weights: FloatPlane, foregroundFirst: Bool) throws {
        let canvas = try image.buffer.interleaved()
        let result = try PixelBuffer.make(format: .bgr, width: canvas.width, height: canvas.height) { destination in
            try canvas.withView { own in
                try other.withView { other in
                    try weights.withView { weights in
                        try shimCall {
                            foregroundFirst
                                ? sv_blend_weighted(own, other, weights, destination)
                                : sv_blend_weighted(other, own, weights, destination)
                        }
                    }
                }
            }
        }
        image = VisionImage(buffer: result)
    }
}
