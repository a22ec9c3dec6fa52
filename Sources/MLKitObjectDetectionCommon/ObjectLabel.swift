@_exported import MLKitVision
import SwiftVisionTasks

/// A label of a detected object, as ML Kit's `ObjectLabel`: text, confidence and index.
public typealias ObjectLabel = SwiftVisionTasks.ObjectLabel
