import CVisionShim
import Foundation

/// Draws results onto an image: boxes, quadrilaterals, polylines, points and labels, in upright pixels.
public struct ImageCanvas: Sendable {
    /// The image drawn so far (upright, BGR).
    public internal(set) var image: VisionImage

    /// A canvas over an upright copy of `image`.
    public init(image: VisionImage) throws {
        self.image = try image.upright().converted(to: .bgr)
    }

    /// A line width that stays visible on large photos.
    public var defaultLineWidth: Int { max(2, min(image.width, image.height) / 300) }

    /// Outlines `rect`, in upright pixels, with lines `lineWidth` pixels wide (``defaultLineWidth`` when nil).
    public mutating func drawRectangle(_ rect: CGRect, color: DrawingColor, lineWidth: Int? = nil) throws {
        let width = lineWidth ?? defaultLineWidth
        try draw { view, color in sv_draw_rectangle(view, rect.minX, rect.minY, rect.width, rect.height, color, Int32(width)) } color: { color }
    }

    /// Outlines `shape`, in upright pixels, with lines `lineWidth` pixels wide (``defaultLineWidth`` when nil).
    public mutating func drawQuadrilateral(_ shape: Quadrilateral, color: DrawingColor, lineWidth: Int? = nil) throws {
        try drawPolyline(shape.corners, closed: true, color: color, lineWidth: lineWidth)
    }

    /// Joins `points`, in upright pixels, with lines `lineWidth` pixels wide (``defaultLineWidth`` when
    /// nil), joining the last point back to the first when `closed`.
    public mutating func drawPolyline(_ points: [CGPoint], closed: Bool, color: DrawingColor, lineWidth: Int? = nil) throws {
        guard !points.isEmpty else { return }
        let width = lineWidth ?? defaultLineWidth
        let coordinates = points.flatMap { [Double($0.x), Double($0.y)] }
        try draw { view, color in
            coordinates.withUnsafeBufferPointer {
                sv_draw_polyline(view, $0.baseAddress, Int32(points.count), closed ? 1 : 0, color, Int32(width))
            }
        } color: { color }
    }

    /// Filled dots of `radius` pixels at `points`.
    public mutating func drawPoints(_ points: [CGPoint], radius: Double? = nil, color: DrawingColor) throws {
        let radius = radius ?? Double(defaultLineWidth)
        for point in points {
            try draw { view, color in sv_draw_circle(view, point.x, point.y, radius, color, -1) } color: { color }
        }
    }

    /// `text` on a filled band whose lower-left corner is `origin`; kept inside the image.
    public mutating func drawLabel(_ text: String, at origin: CGPoint, color: DrawingColor, textColor: DrawingColor = .white) throws {
        let scale = max(0.5, Double(min(image.width, image.height)) / 900)
        let thickness = max(1, Int32(scale * 2))
        var width: Int32 = 0, height: Int32 = 0, baseline: Int32 = 0
        try shimCall { sv_text_size(text, scale, thickness, &width, &height, &baseline) }
        let bandHeight = Double(height + baseline + 4)
        let x = min(max(0, origin.x), max(0, Double(image.width) - Double(width) - 4))
        let y = min(max(bandHeight, origin.y), Double(image.height))
        try drawFilledRectangle(CGRect(x: x, y: y - bandHeight, width: Double(width) + 4, height: bandHeight), color: color)
        try draw { view, color in sv_draw_text(view, text, x + 2, y - Double(baseline) - 2, scale, color, thickness) } color: { textColor }
    }

    /// Paints `overlay` (upright) with its top-left corner at `origin`, clipped to the canvas.
    public mutating func drawImage(_ overlay: VisionImage, at origin: CGPoint) throws {
        let pixels = try overlay.upright().converted(to: .bgr).buffer
        let (x, y) = (Int(origin.x.rounded()), Int(origin.y.rounded()))
        let visible = CGRect(x: x, y: y, width: pixels.width, height: pixels.height)
            .intersection(CGRect(x: 0, y: 0, width: image.width, height: image.height))
        guard !visible.isNull, visible.width >= 1, visible.height >= 1 else { return }
        let (left, top, width, height) = (Int(visible.minX), Int(visible.minY), Int(visible.width), Int(visible.height))
        try image.buffer.withMutableView { canvas in
            try pixels.withView { source in
                try shimCall {
                    sv_copy(
                        source.region(x: left - x, y: top - y, width: width, height: height),
                        canvas.region(x: left, y: top, width: width, height: height))
                }
            }
        }
    }

    private mutating func drawFilledRectangle(_ rect: CGRect, color: DrawingColor) throws {
        try draw { view, color in sv_draw_rectangle(view, rect.minX, rect.minY, rect.width, rect.height, color, -1) } color: { color }
    }

    private mutating func draw(_ body: (SVImageView, UnsafePointer<Double>) -> Int32, color: () -> DrawingColor) throws {
        let components = color().bgra
        try image.buffer.withMutableView { view in
            try components.withUnsafeBufferPointer { color in try shimCall { body(view, color.baseAddress!) } }
        }
    }
}
