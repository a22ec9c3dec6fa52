import CVisionShim

extension PixelBuffer {
    /// The same pixels in `target` format, tightly packed. Conversion into NV12 is not supported.
    public func converted(to target: PixelFormat) throws -> PixelBuffer {
        if target == format { return self }
        guard target != .nv12 else {
            throw ImageError.invalidBuffer("conversion into NV12 is not supported")
        }
        if format == .nv12 {
            if target == .gray {
                return try PixelBuffer.make(format: .gray, width: width, height: height) { destination in
                    try withView { source in
                        var luma = source
                        luma.height = Int32(height)
                        try shimCall { sv_copy(luma, destination) }
                    }
                }
            }
            if target != .rgb && target != .bgr { return try converted(to: .bgr).converted(to: target) }
        }
        let conversion = Self.conversion(from: format, to: target)
        return try PixelBuffer.make(format: target, width: width, height: height) { destination in
            try withView { source in try shimCall { sv_convert_color(source, destination, conversion) } }
        }
    }

    private static func conversion(from source: PixelFormat, to target: PixelFormat) -> SVColorConversion {
        switch (source, target) {
        case (.bgr, .rgb), (.rgb, .bgr): SV_COLOR_SWAP
        case (.bgr, .bgra), (.rgb, .rgba): SV_COLOR_ADD_ALPHA
        case (.bgr, .rgba), (.rgb, .bgra): SV_COLOR_SWAP_ADD_ALPHA
        case (.bgra, .bgr), (.rgba, .rgb): SV_COLOR_DROP_ALPHA
        case (.bgra, .rgb), (.rgba, .bgr): SV_COLOR_SWAP_DROP_ALPHA
        case (.bgra, .rgba), (.rgba, .bgra): SV_COLOR_SWAP_KEEP_ALPHA
        case (.bgr, .gray): SV_COLOR_BGR_TO_GRAY
        case (.rgb, .gray): SV_COLOR_RGB_TO_GRAY
        case (.bgra, .gray): SV_COLOR_BGRA_TO_GRAY
        case (.rgba, .gray): SV_COLOR_RGBA_TO_GRAY
        case (.gray, .bgr), (.gray, .rgb): SV_COLOR_GRAY_TO_3
        case (.gray, .bgra), (.gray, .rgba): SV_COLOR_GRAY_TO_4
        case (.nv12, .rgb): SV_COLOR_NV12_TO_RGB
        default: SV_COLOR_NV12_TO_BGR
        }
    }

    /// The buffer itself, or for NV12 the same pixels as BGR, so that geometric operations see whole pixels.
    func interleaved() throws -> PixelBuffer {
        format == .nv12 ? try converted(to: .bgr) : self
    }
}

extension VisionImage {
    /// The same image with its pixels in `format`.
    public func converted(to format: PixelFormat) throws -> VisionImage {
        VisionImage(buffer: try buffer.converted(to: format), orientation: orientation, sourceFormat: sourceFormat)
    }
}
