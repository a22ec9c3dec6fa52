import SwiftVisionCore

/// One line of text as rapidocr prepares it for PaddleOCR's line models, the recogniser (`ch_ppocr_rec`) and the
/// direction classifier (`ch_ppocr_cls`): scaled to ``height`` pixels keeping its aspect ratio (the width rounded up
/// as rapidocr rounds, at most the model's widest input), in BGR, normalised to (x / 255 − 0.5) / 0.5, with zeros
/// after normalisation to its right up to the model's input width.
struct PaddleLineInput {
    /// The models' input height in pixels.
    static let height = 48

    /// The line scaled to ``height``, in BGR.
    let pixels: PixelBuffer

    /// The width a line `width` × `height` pixels is scaled to: height ``height``, aspect kept, rounded up as
    /// rapidocr rounds, at most `maximum`.
    static func scaledWidth(width: Int, height: Int, maximum: Int) -> Int {
        min(maximum, max(1, Int((Double(Self.height * width) / Double(max(1, height))).rounded(.up))))
    }

    /// `crop` (any pixel format) scaled to ``height`` and `width` (``scaledWidth(width:height:maximum:)``).
    init(_ crop: PixelBuffer, width: Int) throws {
        pixels = try crop.resized(width: width, height: Self.height).converted(to: .bgr)
    }

    /// Writes the line into `tensor`, a model input [1, ``height``, `width`, 3] of float32, from its left edge.
    func store(into tensor: UnsafeMutableRawBufferPointer, width: Int) throws {
        let format = ImageTensorFormat(
            width: width, height: Self.height, channelOrder: .bgr, elementType: .float32(.signedUnit), paddingValue: 127.5)
        try pixels.store(into: tensor, format: format, at: (0, 0))
    }
}
