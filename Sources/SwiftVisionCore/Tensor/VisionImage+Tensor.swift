import CVisionShim
import Foundation

extension VisionImage {
    /// Writes the upright image, or its `region` (upright pixels), into `tensor` in `format`.
    ///
    /// Reads the source pixels once: the region is cropped in place and scaled straight to the tensor
    /// size, then turned upright, colour-converted and normalised at tensor size into `tensor`.
    @discardableResult
    public func write(
        into tensor: UnsafeMutableRawBufferPointer, format: ImageTensorFormat, region: CGRect? = nil
    ) throws -> TensorImageMapping {
        guard tensor.count == format.byteCount else {
            throw ImageError.invalidBuffer("the tensor has \(tensor.count) bytes, the format needs \(format.byteCount)")
        }
        guard format.width > 0, format.height > 0 else {
            throw ImageError.invalidDimensions(width: format.width, height: format.height)
        }
        let layout = try TensorLayout(image: self, region: region, format: format)
        // Scale the stored region to the content size (still in stored orientation).
        let source = try buffer.interleaved()
        let stored = try storedRegion(for: layout.region)
        let (scaledWidth, scaledHeight) =
            orientation.swapsDimensions
            ? (layout.contentHeight, layout.contentWidth) : (layout.contentWidth, layout.contentHeight)
        let interpolation = scaledWidth < stored.width || scaledHeight < stored.height ? SV_INTER_AREA : SV_INTER_LINEAR
        let scaled = try PixelBuffer.make(format: source.format, width: scaledWidth, height: scaledHeight) { destination in
            try source.withView { view in
                let part = view.region(x: stored.x, y: stored.y, width: stored.width, height: stored.height)
                try shimCall { sv_resize(part, destination, interpolation) }
            }
        }
        let upright = try VisionImage(buffer: scaled, orientation: orientation).upright().buffer
        let pixels = try upright.converted(to: format.channelOrder.pixelFormat)
        try pixels.store(into: tensor, format: format, at: (layout.contentX, layout.contentY))
        let content = CGRect(x: layout.contentX, y: layout.contentY, width: layout.contentWidth, height: layout.contentHeight)
        let region = layout.region
        return TensorImageMapping(
            transform: AffineTransform { point in
                CGPoint(
                    x: region.minX + (point.x - content.minX) * region.width / content.width,
                    y: region.minY + (point.y - content.minY) * region.height / content.height)
            },
            content: content, tensorSize: CGSize(width: format.width, height: format.height))
    }

    /// Writes the part of the upright image inside the turned rectangle `region` into `tensor`, filling
    /// the whole tensor (the region's top edge becomes the tensor's top row). Pixels outside the image
    /// get the format's padding value, or repeat the image's edge when the format ``ImageTensorFormat/extendsEdges``. One bilinear pass samples the stored pixels at tensor size.
    @discardableResult
    public func write(
        into tensor: UnsafeMutableRawBufferPointer, format: ImageTensorFormat, region: RotatedRect
    ) throws -> TensorImageMapping {
        guard tensor.count == format.byteCount else {
            throw ImageError.invalidBuffer("the tensor has \(tensor.count) bytes, the format needs \(format.byteCount)")
        }
        guard format.width > 0, format.height > 0, region.size.width != 0, region.size.height != 0 else {
            throw ImageError.invalidRegion("empty tensor or region \(region)")
        }
        let tensorSize = CGSize(width: format.width, height: format.height)
        let toImage = AffineTransform { point in
            region.point(atNormalized: point.x / tensorSize.width, point.y / tensorSize.height)
        }
        let (width, height) = (Double(buffer.width), Double(buffer.height))
        let toStoredIndex = AffineTransform { index in
            let upright = toImage.transform(CGPoint(x: index.x + 0.5, y: index.y + 0.5))
            let stored = orientation.storedPoint(fromUpright: upright.x, upright.y, width: width, height: height)
            return CGPoint(x: stored.x - 0.5, y: stored.y - 0.5)
        }
        let source = try buffer.interleaved()
        var matrix = toStoredIndex.openCVMatrix
        var border = [Double](repeating: format.paddingValue, count: 4)
        let sampled = try PixelBuffer.make(format: source.format, width: format.width, height: format.height) { destination in
            try source.withView { view in
                try shimCall {
                    format.extendsEdges
                        ? sv_warp_affine(view, destination, &matrix, SV_INTER_LINEAR, nil)
                        : sv_warp_affine(view, destination, &matrix, SV_INTER_LINEAR, &border)
                }
            }
        }
        try sampled.converted(to: format.channelOrder.pixelFormat).store(into: tensor, format: format, at: (0, 0))
        return TensorImageMapping(
            transform: toImage, content: CGRect(origin: .zero, size: tensorSize), tensorSize: tensorSize)
    }
}

extension PixelBuffer {
    /// Copies or normalises these pixels (in `format`'s channel order) into `tensor` at `origin`, padding the
    /// rest with `format`'s padding value; an error when the tensor does not hold `format` or the pixels do not
    /// fit at `origin`.
    package func store(
        into tensor: UnsafeMutableRawBufferPointer, format: ImageTensorFormat, at origin: (x: Int, y: Int)
    ) throws {
        guard tensor.count == format.byteCount else {
            throw ImageError.invalidBuffer("the tensor has \(tensor.count) bytes, the format needs \(format.byteCount)")
        }
        guard origin.x >= 0, origin.y >= 0, origin.x + width <= format.width, origin.y + height <= format.height else {
            throw ImageError.invalidDimensions(width: width, height: height)
        }
        let channels = format.channelOrder.channelCount
        let isFloat = if case .float32 = format.elementType { true } else { false }
        let elementSize = isFloat ? 4 : 1
        let whole = SVImageView(
            base: tensor.baseAddress!, width: format.width, height: format.height,
            bytesPerRow: format.width * channels * elementSize, channels: channels,
            depth: isFloat ? SV_DEPTH_F32 : SV_DEPTH_U8)
        let content = whole.region(x: origin.x, y: origin.y, width: width, height: height)
        switch format.elementType {
        case .uint8:
            if width != format.width || height != format.height {
                var padding = [Double](repeating: format.paddingValue, count: 4)
                try shimCall { sv_fill(whole, &padding) }
            }
            try withView { view in try shimCall { sv_copy(view, content) } }
        case .float32(let normalization):
            var mean = (0..<4).map { normalization.channel($0).mean }
            var std = (0..<4).map { normalization.channel($0).std }
            if width != format.width || height != format.height {
                var padding = (0..<4).map { (format.paddingValue - mean[$0]) / std[$0] }
                try shimCall { sv_fill(whole, &padding) }
            }
            try withView { view in try shimCall { sv_normalize(view, content, &mean, &std) } }
        }
    }
}

extension VisionImage {
    /// The part of `region` (upright pixels; the whole image when nil) inside the image; an error when
    /// that does not cover a pixel.
    package func pixelRegion(_ region: CGRect?) throws -> CGRect {
        let bounds = CGRect(x: 0, y: 0, width: width, height: height)
        if let region, ![region.minX, region.minY, region.width, region.height].allSatisfy(\.isFinite) {
            throw ImageError.invalidRegion("\(region) is not a finite rectangle")
        }
        let inside = (region ?? bounds).standardized.intersection(bounds)
        guard !inside.isNull, inside.width >= 1, inside.height >= 1 else {
            throw ImageError.invalidRegion("\(region ?? bounds) does not cover a pixel of the \(width)×\(height) image")
        }
        return inside
    }
}

extension ImageTensorFormat.ChannelOrder {
    var pixelFormat: PixelFormat {
        switch self {
        case .rgb: .rgb
        case .bgr: .bgr
        case .gray: .gray
        }
    }
}

/// The image region to convert and where it lands in the tensor.
private struct TensorLayout {
    var region: CGRect
    var contentX = 0, contentY = 0, contentWidth: Int, contentHeight: Int

    init(image: VisionImage, region requested: CGRect?, format: ImageTensorFormat) throws {
        var region = try image.pixelRegion(requested)
        let (width, height) = (Double(format.width), Double(format.height))
        contentWidth = format.width
        contentHeight = format.height
        switch format.resizeMode {
        case .stretch:
            break
        case .centerCrop:
            let scale = max(width / region.width, height / region.height)
            region = region.insetBy(dx: (region.width - width / scale) / 2, dy: (region.height - height / scale) / 2)
        case .letterbox:
            let scale = min(width / region.width, height / region.height)
            contentWidth = max(1, min(format.width, Int((region.width * scale).rounded())))
            contentHeight = max(1, min(format.height, Int((region.height * scale).rounded())))
            contentX = (format.width - contentWidth) / 2
            contentY = (format.height - contentHeight) / 2
        }
        self.region = region
    }
}
