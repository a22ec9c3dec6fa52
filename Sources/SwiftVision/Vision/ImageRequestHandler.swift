import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Performs requests on one image, as Vision's `ImageRequestHandler`.
public struct ImageRequestHandler: Sendable {
    /// The image the requests are performed on.
    public let image: VisionImage

    /// A handler that performs requests on `image`.
    public init(_ image: VisionImage) {
        self.image = image
    }

    /// Decodes the image file at `url` (EXIF orientation honoured).
    public init(url: URL) throws {
        self.init(try VisionImage(contentsOf: url))
    }

    /// Performs `request` on the image.
    public func perform<Request: VisionRequest>(_ request: Request) throws -> Request.Result {
        try request.perform(on: image)
    }

    /// Performs `request` on the image off the caller's task.
    public func perform<Request: VisionRequest>(_ request: Request) async throws -> Request.Result {
        let image = image
        return try await offloaded { try request.perform(on: image) }
    }
}
