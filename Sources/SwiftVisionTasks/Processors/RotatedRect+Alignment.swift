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

extension RotatedRect {
    /// The rectangle to give `VisionImage.write(into:format:region:)` so that each tensor pixel samples
    /// the image where MediaPipe's `ImageToTensorCalculator` samples it. Its OpenCV warp maps the
    /// rectangle's corners onto the tensor's corners with pixel indices as coordinates (tensor pixel `i`
    /// reads the image at `i × width / tensorWidth` from the corner); ours samples pixel centres
    /// (`(i + 0.5) × width / tensorWidth − 0.5`). The shift is up to a few pixels for large crops, and
    /// detection scores near the threshold depend on it.
    func sampledAsMediaPipe(tensorWidth: Int, tensorHeight: Int) -> RotatedRect {
        let (along, across) = (-0.5 * size.width / Double(tensorWidth), -0.5 * size.height / Double(tensorHeight))
        let (sine, cosine) = (sin(rotation), cos(rotation))
        let shifted = CGPoint(
            x: center.x + along * cosine - across * sine + 0.5, y: center.y + along * sine + across * cosine + 0.5)
        return RotatedRect(center: shifted, size: size, rotation: rotation)
    }
}
