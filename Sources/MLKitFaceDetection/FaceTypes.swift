@_exported import MLKitVision
import SwiftVisionTasks

/// The kinds of face landmark, as ML Kit's `FaceLandmarkType`.
public typealias FaceLandmarkType = SwiftVisionTasks.FaceLandmarkType
/// The kinds of face contour, as ML Kit's `FaceContourType`.
public typealias FaceContourType = SwiftVisionTasks.FaceContourType
