import Foundation

/// Performs requests on one image, as Vision's `VNImageRequestHandler`.
public struct ImageRequestHandler: Sendable {
    /// The image the requests run on; results refer to its upright pixels.
    public let image: VisionImage

    public init(image: VisionImage) {
        self.image = image
    }

    /// A handler for the image file at `url`, decoded with its EXIF orientation.
    public init(url: URL, options: ImageDecodingOptions = .init()) throws {
        self.init(image: try VisionImage(contentsOf: url, options: options))
    }

    /// Runs `requests` in order; each keeps its results. Stops at the first request that fails.
    public func perform(_ requests: [any VisionRequest]) throws {
        for request in requests {
            try request.perform(on: image)
        }
    }
}
