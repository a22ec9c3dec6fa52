import Foundation

extension AffineTransform {
    /// The affine map that sends (0, 0), (1, 0) and (0, 1) to `origin`, `unitX` and `unitY`.
    init(origin: CGPoint, unitX: CGPoint, unitY: CGPoint) {
        self.init(
            m11: unitX.x - origin.x, m12: unitX.y - origin.y, m21: unitY.x - origin.x, m22: unitY.y - origin.y,
            tX: origin.x, tY: origin.y)
    }

    /// The affine map that behaves as `map` (which must be affine).
    init(sampling map: (CGPoint) -> CGPoint) {
        self.init(origin: map(.zero), unitX: map(CGPoint(x: 1, y: 0)), unitY: map(CGPoint(x: 0, y: 1)))
    }

    /// OpenCV's row-major 2×3 matrix of this map.
    var openCVMatrix: [Double] { [m11, m21, tX, m12, m22, tY] }
}
