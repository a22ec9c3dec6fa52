import Foundation
import SwiftVisionCore

extension RotatedRect {
    /// The region MediaPipe's `ImageToTensorCalculator` converts for `region` (upright pixels) into a
    /// `tensorWidth`×`tensorHeight` tensor: `.stretch` keeps it (`keep_aspect_ratio: false`),
    /// `.letterbox` grows it about its centre on one axis to the tensor's aspect ratio (`keep_aspect_ratio:
    /// true`, its `PadRoi`), `.centerCrop` shrinks it on one axis instead.
    init(imageToTensor region: CGRect, tensorWidth: Int, tensorHeight: Int, resizeMode: ImageTensorFormat.ResizeMode) {
        var size = region.size
        let tensorAspect = Double(tensorHeight) / Double(tensorWidth)
        let regionAspect = size.height / size.width
        switch resizeMode {
        case .stretch:
            break
        case .letterbox:
            if tensorAspect > regionAspect { size.height = size.width * tensorAspect } else { size.width = size.height / tensorAspect }
        case .centerCrop:
            if tensorAspect > regionAspect { size.width = size.height / tensorAspect } else { size.height = size.width * tensorAspect }
        }
        self.init(center: CGPoint(x: region.midX, y: region.midY), size: size, rotation: 0)
    }
}

extension VisionImage {
    /// Writes `region` of the upright image (the whole image when nil; clipped to the image) into
    /// `tensor` as MediaPipe's `ImageToTensorCalculator` does on the CPU: one bilinear warp of the 8-bit
    /// pixels that maps the region's corners onto the tensor's corners (see
    /// ``RotatedRect/sampledAsMediaPipe(tensorWidth:tensorHeight:)``), fitted by the format's resize mode
    /// (``RotatedRect/init(imageToTensor:tensorWidth:tensorHeight:resizeMode:)``), then normalised.
    /// Pixels outside the image repeat its edge when the format ``ImageTensorFormat/extendsEdges``
    /// (`BORDER_REPLICATE`), else get its padding value (`BORDER_ZERO`). Returns the region converted.
    @discardableResult
    package func writeAsMediaPipe(
        into tensor: UnsafeMutableRawBufferPointer, format: ImageTensorFormat, region: CGRect? = nil
    ) throws -> RotatedRect {
        let converted = RotatedRect(
            imageToTensor: try pixelRegion(region), tensorWidth: format.width, tensorHeight: format.height,
            resizeMode: format.resizeMode)
        try write(into: tensor, format: format, region: converted.sampledAsMediaPipe(tensorWidth: format.width, tensorHeight: format.height))
        return converted
    }
}
