import SwiftVisionCore
import SwiftVisionRuntime

/// What counts as a rectangle, with the defaults of Vision's `VNDetectRectanglesRequest`.
public struct RectangleEngineOptions: Sendable, Equatable {
    /// The smallest accepted ratio of the shorter to the longer side, 0–1.
    public var minimumAspectRatio: Float = 0.5
    /// The largest accepted ratio of the shorter to the longer side, 0–1.
    public var maximumAspectRatio: Float = 1
    /// How far, in degrees, each corner may be from a right angle as seen in the image.
    public var quadratureTolerance: Float = 30
    /// The shortest accepted side, as a fraction of the image's shorter side.
    public var minimumSize: Float = 0.2
    /// Rectangles below this confidence are left out.
    public var minimumConfidence: Float = 0
    /// At most this many rectangles, the most prominent first; 0 means no limit.
    public var maximumObservations: Int = 1

    /// Options with Vision's defaults for whatever is not given.
    public init(
        minimumAspectRatio: Float = 0.5, maximumAspectRatio: Float = 1, quadratureTolerance: Float = 30,
        minimumSize: Float = 0.2, minimumConfidence: Float = 0, maximumObservations: Int = 1
    ) {
        self.minimumAspectRatio = minimumAspectRatio
        self.maximumAspectRatio = maximumAspectRatio
        self.quadratureTolerance = quadratureTolerance
        self.minimumSize = minimumSize
        self.minimumConfidence = minimumConfidence
        self.maximumObservations = maximumObservations
    }

    /// Throws unless every option is within its range, naming the option at fault by its key here
    /// (`minimumSize`).
    func validate() throws {
        func check(_ condition: Bool, _ key: String, _ reason: String) throws {
            guard condition else { throw VisionTaskError.invalidOption(reason, key: key) }
        }
        for (key, ratio) in [("minimumAspectRatio", minimumAspectRatio), ("maximumAspectRatio", maximumAspectRatio)] {
            try check((0...1).contains(ratio), key, "must lie in 0…1, not \(ratio)")
        }
        try check(minimumAspectRatio <= maximumAspectRatio, "minimumAspectRatio",
                  "must not exceed the largest aspect ratio (\(maximumAspectRatio)), not \(minimumAspectRatio)")
        try check((0...45).contains(quadratureTolerance), "quadratureTolerance", "must lie in 0…45 degrees, not \(quadratureTolerance)")
        try check((0...1).contains(minimumSize), "minimumSize", "must lie in 0…1, not \(minimumSize)")
        try check((0...1).contains(minimumConfidence), "minimumConfidence", "must lie in 0…1, not \(minimumConfidence)")
        try check(maximumObservations >= 0, "maximumObservations", "must not be negative, not \(maximumObservations)")
    }
}
