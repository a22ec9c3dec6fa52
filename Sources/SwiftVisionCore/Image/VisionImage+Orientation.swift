import CVisionShim

/// A quarter-turn rotation of an image.
public enum ImageRotation: Sendable, CaseIterable {
    /// A quarter turn clockwise, a half turn, or a quarter turn counter-clockwise.
    case clockwise90, rotate180, counterClockwise90

    var orientation: ImageOrientation {
        switch self {
        case .clockwise90: .right
        case .rotate180: .down
        case .counterClockwise90: .left
        }
    }
}

extension VisionImage {
    /// The image turned by `rotation`; only the orientation changes, no pixels are copied.
    public func rotated(by rotation: ImageRotation) -> VisionImage {
        var image = self
        image.orientation = orientation.followed(by: rotation.orientation)
        return image
    }

    /// The image mirrored left to right (a front camera's view); no pixels are copied.
    public func mirrored() -> VisionImage {
        var image = self
        image.orientation = orientation.followed(by: .upMirrored)
        return image
    }

    /// The image with its pixels turned upright and ``orientation`` `.up`.
    public func upright() throws -> VisionImage {
        let (rotation, flip) = orientation.uprightingSteps
        guard rotation != nil || flip != nil else { return self }
        var pixels = try buffer.interleaved()
        if let rotation {
            let swaps = rotation != SV_ROTATE_180
            let source = pixels
            pixels = try PixelBuffer.make(
                format: source.format, width: swaps ? source.height : source.width,
                height: swaps ? source.width : source.height
            ) { destination in
                try source.withView { view in try shimCall { sv_rotate(view, destination, rotation) } }
            }
        }
        if let flip {
            let source = pixels
            pixels = try PixelBuffer.make(format: source.format, width: source.width, height: source.height) {
                destination in
                try source.withView { view in try shimCall { sv_flip(view, destination, flip) } }
            }
        }
        return VisionImage(buffer: pixels, orientation: .up, sourceFormat: sourceFormat)
    }
}
