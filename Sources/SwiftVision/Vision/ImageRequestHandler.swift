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

    /// Performs several requests on the image in one call, in order, and returns their results in the
    /// same order, as Vision's `perform(_:_:…)`; the image is decoded once for all of them.
    public func perform<First: VisionRequest, Second: VisionRequest, each Other: VisionRequest>(
        _ first: First, _ second: Second, _ other: repeat each Other
    ) throws -> (First.Result, Second.Result, repeat (each Other).Result) {
        (try first.perform(on: image), try second.perform(on: image), repeat try (each other).perform(on: image))
    }

    /// Performs several requests on the image off the caller's task, in order.
    public func perform<First: VisionRequest, Second: VisionRequest, each Other: VisionRequest>(
        _ first: First, _ second: Second, _ other: repeat each Other
    ) async throws -> (First.Result, Second.Result, repeat (each Other).Result) {
        let handler = self
        return try await offloaded { try handler.perform(first, second, repeat each other) }
    }
}
