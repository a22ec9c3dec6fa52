import Foundation

/// An object found by ``ObjectDetector``, as ML Kit's `DetectedObject`.
public struct DetectedObject: Sendable, Equatable {
    /// The object's box in pixels of the upright image.
    public let frame: CGRect
    /// Identifies the object across frames in stream mode; nil in single-image mode.
    public let trackingID: Int?
    /// Labels, most confident first; empty without classification.
    public let labels: [ObjectLabel]
}

/// A label of a detected object, as ML Kit's `ObjectLabel`.
public struct ObjectLabel: Sendable, Equatable, Codable {
    public let text: String
    /// 0–1.
    public let confidence: Float
    /// Index of the label in its label set (the detector's COCO classes, or ``ObjectCategory``).
    public let index: Int

    public init(text: String, confidence: Float, index: Int) {
        self.text = text
        self.confidence = confidence
        self.index = index
    }
}
