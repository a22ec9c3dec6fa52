import Foundation

extension ImageCanvas {
    /// A pair of glasses placed on the eyes: lenses centred on the pupils, sized by the distance
    /// between them and turned with the eye line, a bridge between them and short temples.
    public mutating func drawGlasses(leftPupil: CGPoint, rightPupil: CGPoint, color: DrawingColor = .black) throws {
        let (start, end) = rightPupil.x <= leftPupil.x ? (rightPupil, leftPupil) : (leftPupil, rightPupil)
        let distance = hypot(end.x - start.x, end.y - start.y)
        guard distance > 0 else { return }
        let angle = atan2(end.y - start.y, end.x - start.x)
        let lineWidth = max(2, Int(distance / 22))
        let (radiusX, radiusY) = (distance * 0.42, distance * 0.3)
        func lens(around center: CGPoint) -> [CGPoint] {
            (0..<32).map { step in
                let t = Double(step) / 32 * 2 * .pi
                let (x, y) = (radiusX * cos(t), radiusY * sin(t))
                return CGPoint(x: center.x + x * cos(angle) - y * sin(angle), y: center.y + x * sin(angle) + y * cos(angle))
            }
        }
        func along(_ point: CGPoint, _ offset: Double) -> CGPoint {
            CGPoint(x: point.x + offset * cos(angle), y: point.y + offset * sin(angle))
        }
        try drawPolyline(lens(around: start), closed: true, color: color, lineWidth: lineWidth)
        try drawPolyline(lens(around: end), closed: true, color: color, lineWidth: lineWidth)
        try drawPolyline([along(start, radiusX), along(end, -radiusX)], closed: false, color: color, lineWidth: lineWidth)
        try drawPolyline([along(start, -radiusX), along(start, -radiusX * 1.6)], closed: false, color: color, lineWidth: lineWidth)
        try drawPolyline([along(end, radiusX), along(end, radiusX * 1.6)], closed: false, color: color, lineWidth: lineWidth)
    }
}
