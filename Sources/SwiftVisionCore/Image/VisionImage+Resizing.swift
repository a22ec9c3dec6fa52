extension VisionImage {
    /// The image scaled to `width`×`height` upright pixels (area averaging when shrinking, bilinear when enlarging).
    public func resized(width: Int, height: Int, limits: ImageLimits = .default) throws -> VisionImage {
        try limits.check(width: width, height: height)
        let (storedWidth, storedHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        let pixels = try buffer.resized(width: storedWidth, height: storedHeight)
        return VisionImage(buffer: pixels, orientation: orientation, sourceFormat: sourceFormat)
    }
}
