import Foundation

/// The type a ``Mask`` holds its values in, as MediaPipe's `MaskDataType`.
public enum MaskDataType: Sendable, Hashable {
    /// One byte a pixel, 0–255 (a category mask).
    case uInt8
    /// One float a pixel, usually 0–1 (a confidence mask).
    case float32
}

/// A segmentation mask, as MediaPipe's `Mask`: one value a pixel, row after row from the top left.
///
/// On iOS `uint8Data` and `float32Data` are `UnsafePointer`s owned by the task; here they are arrays the
/// mask owns, so `mask.float32Data[y * mask.width + x]` reads the same and stays valid as long as it is
/// kept. As on iOS, the mask holds its values in ``dataType`` and converts them for the other property
/// (a byte `v` reads as `v / 255`, a float `f` as `f × 255` rounded and clamped to 0–255); the conversion
/// is made once, when the mask is made.
public final class Mask: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The type the values were produced in.
    public let dataType: MaskDataType
    /// The values as bytes, 0–255, `width` × `height` of them.
    public let uint8Data: [UInt8]
    /// The values as floats, `width` × `height` of them.
    public let float32Data: [Float]

    /// A float mask of `values`, `width` × `height` of them.
    init(float32Data values: [Float], width: Int, height: Int) {
        self.width = width
        self.height = height
        dataType = .float32
        float32Data = values
        uint8Data = values.map { UInt8(min(max(($0 * 255).rounded(), 0), 255)) }
    }

    /// A byte mask of `values`, `width` × `height` of them.
    init(uInt8Data values: [UInt8], width: Int, height: Int) {
        self.width = width
        self.height = height
        dataType = .uInt8
        uint8Data = values
        float32Data = values.map { Float($0) / 255 }
    }
}
