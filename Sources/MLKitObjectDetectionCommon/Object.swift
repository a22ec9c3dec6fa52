@_exported import MLKitVision
import Foundation
import SwiftVisionTasks

/// A label of a detected object, as ML Kit's `ObjectLabel`: text, confidence and index.
public typealias ObjectLabel = SwiftVisionTasks.ClassLabel

/// An object found by ``ObjectDetector``, as ML Kit's `Object`.
public struct Object: @unchecked Sendable, Equatable {
    /// The object's box in pixels of the upright image.
    public let frame: CGRect
    /// Labels, most confident first; empty without classification.
    public let labels: [ObjectLabel]
    /// Identifies the object across the frames of a stream; nil for single images.
    public let trackingID: NSNumber?

    init(_ object: DetectedObject) {
        frame = object.frame
        labels = object.labels
        trackingID = object.trackingID.map { NSNumber(value: $0) }
    }
}
