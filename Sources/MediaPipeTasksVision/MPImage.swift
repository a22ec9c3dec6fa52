import SwiftVisionCore
import SwiftVisionTasks

/// The image or video frame every MediaPipe task takes, as MediaPipe's `MPImage`: made from a file
/// (`MPImage(contentsOf:)`, EXIF orientation honoured) or from a decoded frame.
public typealias MPImage = SwiftVisionCore.VisionImage
/// Single images, video frames or a live stream, as MediaPipe's `RunningMode`.
public typealias RunningMode = SwiftVisionTasks.RunningMode
/// One output head's embedding, as MediaPipe's `Embedding`.
public typealias Embedding = SwiftVisionTasks.Embedding
