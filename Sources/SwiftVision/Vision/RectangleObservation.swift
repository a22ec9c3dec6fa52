import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// A rectangle found by ``DetectRectanglesRequest`` (Vision's `VNRectangleObservation`).
public struct RectangleObservation: QuadrilateralObservation, Equatable {
    public var imageCorners: Quadrilateral
    public var imageSize: CGSize
    public var confidence: Float

    public init(imageCorners: Quadrilateral, imageSize: CGSize, confidence: Float) {
        self.imageCorners = imageCorners
        self.imageSize = imageSize
        self.confidence = confidence
    }
}
