@_exported import MLKitVision
import SwiftVisionTasks

/// A label of an image or an object, as ML Kit's `ImageLabel`: text, confidence and the model's class index.
public typealias ImageLabel = SwiftVisionTasks.ClassLabel
