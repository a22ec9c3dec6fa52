import Foundation
import SwiftVisionCore

extension RotatedRect {
    /// MediaPipe's `AlignmentPointsRectsCalculator`: a square centred on `center` whose side is twice the
    /// distance to `scalePoint`, turned so that the line from `center` to `scalePoint` points up (its
    /// `rotation_vector_target_angle_degrees: 90`), in upright pixels.
    init(aligningCenter center: CGPoint, scalePoint: CGPoint) {
        let side = 2 * hypot(scalePoint.x - center.x, scalePoint.y - center.y)
        self.init(
            center: center, size: CGSize(width: side, height: side),
            rotation: RotatedRect.rotation(from: center, to: scalePoint) + .pi / 2)
    }
}
