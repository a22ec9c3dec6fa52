@_exported import MLKitVision
import SwiftVisionTasks

/// A person-confidence mask, as ML Kit's `SegmentationMask`.
public typealias SegmentationMask = SwiftVisionTasks.SegmentationMask
