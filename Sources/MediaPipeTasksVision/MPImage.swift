import Foundation
import SwiftVisionCore
import SwiftVisionTasks

/// The image or video frame every MediaPipe task takes, as MediaPipe's `MPImage`: made from a file
/// (`MPImage(contentsOf:)`, EXIF orientation honoured) or from a decoded frame.
public typealias MPImage = SwiftVisionCore.VisionImage
/// Single images, video frames or a live stream, as MediaPipe's `RunningMode`.
public typealias RunningMode = SwiftVisionTasks.RunningMode
/// One output head's embedding, as MediaPipe's `Embedding`.
public typealias Embedding = SwiftVisionTasks.Embedding

extension SwiftVisionCore.VisionImage {
    /// The image in the file at `url` (JPEG, PNG, WebP, BMP, TIFF, HEIF, AVIF or GIF), oriented by its EXIF orientation:
    /// what `MPImage(uiImage:)` makes on iOS. A file that is missing or not a decodable image throws as MediaPipe's
    /// image initializers do (`MPPImage.m`): an `NSError` in ``MPPTasksErrorDomain`` with
    /// ``TasksErrorCode/invalidArgumentError`` whose `localizedDescription` says what is wrong with the file, with
    /// SwiftVision's `ImageError` under `NSUnderlyingErrorKey`.
    ///
    /// `MPImage` being SwiftVision's `VisionImage`, a file that imports this module calls this initializer for
    /// `VisionImage(contentsOf:)` too; `VisionImage(contentsOf:options:)` throws SwiftVision's `ImageError`.
    public init(contentsOf url: URL) throws {
        do {
            try self.init(contentsOf: url, options: ImageDecodingOptions())
        } catch {
            throw NSError.mediaPipe(error)
        }
    }
}
