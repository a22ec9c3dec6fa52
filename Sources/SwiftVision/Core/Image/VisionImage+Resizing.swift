import CVisionShim

extension VisionImage {
    /// The image scaled to `width`×`height` upright pixels (area averaging when shrinking, bilinear when enlarging).
    public func resized(width: Int, height: Int, limits: ImageLimits = .default) throws -> VisionImage {
        try limits.check(width: width, height: height)
        let source = try buffer.interleaved()
        let (storedWidth, storedHeight) = orientation.swapsDimensions ? (height, width) : (width, height)
        let interpolation = storedWidth < source.width ? SV_INTER_AREA : SV_INTER_LINEAR
        let pixels = try PixelBuffer.make(format: source.format, width: storedWidth, height: storedHeight) {
            destination in
            try source.withView { view in try shimCall { sv_resize(view, destination, interpolation) } }
        }
        return VisionImage(buffer: pixels, orientation: orientation, sourceFormat: sourceFormat)
    }
}
