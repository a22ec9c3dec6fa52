import CVisionShim
import Foundation

extension VisionImage {
    /// The part of the image inside `rect`, given in upright pixels and widened to whole pixels.
    /// Keeps the orientation; copies only the rows of the region.
    public func cropped(to rect: CGRect) throws -> VisionImage {
        let stored = try storedRegion(for: rect)
        let pixels = try buffer.cropped(x: stored.x, y: stored.y, width: stored.width, height: stored.height)
        return VisionImage(buffer: pixels, orientation: orientation, sourceFormat: sourceFormat)
    }

    /// `rect` in upright pixels mapped to whole stored pixels, checked to lie inside the image.
    func storedRegion(for rect: CGRect) throws -> (x: Int, y: Int, width: Int, height: Int) {
        let bounds = CGRect(x: 0, y: 0, width: width, height: height)
        let clipped = rect.standardized.intersection(bounds)
        guard !clipped.isNull, clipped.width >= 1 || clipped.height >= 1 else {
            throw ImageError.invalidRegion("\(rect) does not overlap the \(width)×\(height) image")
        }
        let (w, h) = (Double(buffer.width), Double(buffer.height))
        let a = orientation.storedPoint(fromUpright: clipped.minX, clipped.minY, width: w, height: h)
        let b = orientation.storedPoint(fromUpright: clipped.maxX, clipped.maxY, width: w, height: h)
        let minX = Int(min(a.x, b.x).rounded(.down)), maxX = Int(max(a.x, b.x).rounded(.up))
        let minY = Int(min(a.y, b.y).rounded(.down)), maxY = Int(max(a.y, b.y).rounded(.up))
        return (minX, minY, max(1, maxX - minX), max(1, maxY - minY))
    }
}

extension SVImageView {
    /// The sub-view of a region, sharing memory.
    func region(x: Int, y: Int, width: Int, height: Int) -> SVImageView {
        let bytesPerPixel = Int(channels) * (depth == SV_DEPTH_F32 ? 4 : 1)
        var view = self
        view.data = data.advanced(by: y * Int(bytesPerRow) + x * bytesPerPixel)
        view.width = Int32(width)
        view.height = Int32(height)
        return view
    }
}
