import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Finds rectangles in perspective, as Vision's `DetectRectanglesRequest`, with its options and defaults.
public struct DetectRectanglesRequest: VisionRequest {
    /// The smallest accepted ratio of the shorter to the longer side, 0–1.
    public var minimumAspectRatio: Float = 0.5
    /// The largest accepted ratio of the shorter to the longer side, 0–1.
    public var maximumAspectRatio: Float = 1
    /// How far, in degrees, each corner may be from a right angle.
    public var quadratureTolerance: Float = 30
    /// The shortest accepted side, as a fraction of the image's shorter side.
    public var minimumSize: Float = 0.2
    /// Rectangles below this confidence, 0–1, are left out.
    public var minimumConfidence: Float = 0
    /// At most this many observations, the most prominent first; 0 means no limit.
    public var maximumObservations = 1
    /// The part of the image searched, normalised with the origin at the lower left.
    public var regionOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// Called with the request's results or error each time a handler performs it (Vision's
    /// `completionHandler`); nil for none.
    public var completionHandler: CompletionHandler?
    /// What the request produces: the rectangles, the most prominent first.
    public typealias Result = [RectangleObservation]

    /// A request with Vision's defaults.
    public init() {}

    /// The rectangles in `image`, the most prominent first, with corners in its upright pixels.
    public func perform(on image: VisionImage) throws -> [RectangleObservation] {
        let task = try RectanglesTask(
            options: RectanglesTask.Options(RectangleEngineOptions(
                minimumAspectRatio: minimumAspectRatio, maximumAspectRatio: maximumAspectRatio,
                quadratureTolerance: quadratureTolerance, minimumSize: minimumSize, minimumConfidence: minimumConfidence,
                maximumObservations: maximumObservations)))
        let (part, origin) = try image.region(ofInterest: regionOfInterest)
        return try task.output(for: part).rectangles.map {
            RectangleObservation(imageCorners: $0.corners.offset(by: origin), imageSize: image.size, confidence: $0.confidence)
        }
    }
}
