extension VisionImage {
    /// The upright pixels as 8-bit gray, what the analysis tasks work on (turned after the
    /// conversion, so that only one channel moves).
    package func uprightGray() throws -> PixelBuffer {
        try VisionImage(buffer: buffer.converted(to: .gray), orientation: orientation).upright().buffer
    }
}
