@_exported import MLKitVision
import SwiftVisionTasks

/// The 33 body landmarks, as ML Kit's `PoseLandmarkType`.
public typealias PoseLandmarkType = SwiftVisionTasks.PoseLandmarkType
