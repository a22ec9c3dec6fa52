import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Performs requests on one image, as Vision's `ImageRequestHandler`. Every form of `perform` hands
/// each request's results or error to the request's completion handler, in the order the requests
/// are given, before it returns.
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
        try outcome(of: request).get()
    }

    /// Performs `request` on the image off the caller's task.
    public func perform<Request: VisionRequest>(_ request: Request) async throws -> Request.Result {
        let handler = self
        return try await offloaded { try handler.perform(request) }
    }

    /// Performs several requests on the image in one call, in order, and returns their results in the
    /// same order, as Vision's `perform(_:_:…)`; the image is decoded once for all of them. As in
    /// Vision, every request runs even when one before it fails; then the first error is thrown.
    public func perform<First: VisionRequest, Second: VisionRequest, each Other: VisionRequest>(
        _ first: First, _ second: Second, _ other: repeat each Other
    ) throws -> (First.Result, Second.Result, repeat (each Other).Result) {
        let firstOutcome = outcome(of: first)
        let secondOutcome = outcome(of: second)
        let otherOutcomes = (repeat outcome(of: each other))
        return (try firstOutcome.get(), try secondOutcome.get(), repeat try (each otherOutcomes).get())
    }

    /// Performs `requests` on the image in one call, in order, as Vision's `VNImageRequestHandler.perform(_:)`:
    /// their results reach their completion handlers. Every request runs even when one before it fails;
    /// then the first error is thrown.
    public func perform(_ requests: [any VisionRequest]) throws {
        let errors = requests.compactMap { error(of: $0) }
        if let error = errors.first { throw error }
    }

    /// Performs `requests` on the image off the caller's task, in order.
    public func perform(_ requests: [any VisionRequest]) async throws {
        let handler = self
        try await offloaded { try handler.perform(requests) }
    }

    /// Performs `request` and hands the outcome to its completion handler.
    private func outcome<Request: VisionRequest>(of request: Request) -> Result<Request.Result, any Error> {
        request.report(Result { try request.perform(on: image) })
    }

    /// Performs `request` and hands the outcome to its completion handler; returns its error, if any.
    private func error<Request: VisionRequest>(of request: Request) -> (any Error)? {
        if case .failure(let error) = outcome(of: request) { return error }
        return nil
    }

    /// Performs several requests on the image off the caller's task, in order.
    public func perform<First: VisionRequest, Second: VisionRequest, each Other: VisionRequest>(
        _ first: First, _ second: Second, _ other: repeat each Other
    ) async throws -> (First.Result, Second.Result, repeat (each Other).Result) {
        let handler = self
        return try await offloaded { try handler.perform(first, second, repeat each other) }
    }
}
