import Foundation
import SwiftVisionCore

/// An option of an image request handler, as Vision's `VNImageOption`. None changes anything here: the
/// image's EXIF orientation is always honoured.
public struct VNImageOption: Hashable, Sendable, RawRepresentable {
    /// The option's name.
    public var rawValue: String

    /// The option named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}

/// An image's orientation as Core Graphics names it, which Vision's handlers take: the EXIF orientations
/// 1–8 under the same names (`.up`, `.right`, …).
public typealias CGImagePropertyOrientation = ImageOrientation

/// Performs `VN…` requests on one image, as Vision's `VNImageRequestHandler`. An image that cannot be
/// read is reported by ``perform(_:)``, to each request's completion handler and as the thrown error, an
/// `NSError` in ``VNErrorDomain`` (``VNErrorCode``).
public final class VNImageRequestHandler {
    private let image: Result<VisionImage, any Error>

    /// A handler for the image file at `url` (EXIF orientation honoured).
    public init(url: URL, options: [VNImageOption: Any] = [:]) {
        image = Result { try VisionImage(contentsOf: url) }
    }

    /// A handler for the image file at `url` shown in `orientation`, which replaces its EXIF orientation.
    public init(url: URL, orientation: CGImagePropertyOrientation, options: [VNImageOption: Any] = [:]) {
        image = Result { try VisionImage(contentsOf: url).with(orientation) }
    }

    /// A handler for the encoded image `data` (JPEG, PNG, WebP, BMP, TIFF, HEIF, AVIF or GIF).
    public init(data: Data, options: [VNImageOption: Any] = [:]) {
        image = Result { try VisionImage(data: data) }
    }

    /// A handler for the encoded image `data` shown in `orientation`, which replaces its EXIF orientation.
    public init(data: Data, orientation: CGImagePropertyOrientation, options: [VNImageOption: Any] = [:]) {
        image = Result { try VisionImage(data: data).with(orientation) }
    }

    /// A handler for SwiftVision's decoded image or video frame, in place of Vision's `CGImage` or
    /// `CVPixelBuffer`.
    public init(image: VisionImage, options: [VNImageOption: Any] = [:]) {
        self.image = .success(image)
    }

    /// Performs `requests` in order: each gets its ``VNRequest/results`` and its completion handler is
    /// called. As in Vision, every request runs even when one before it fails; then the first error is thrown.
    public func perform(_ requests: [VNRequest]) throws {
        let errors = requests.compactMap { $0.perform(on: image, sequence: nil) }
        if let error = errors.first { throw error }
    }
}

/// Performs `VN…` requests on the frames of a video in order, keeping trackers and tracked faces
/// between frames, as Vision's `VNSequenceRequestHandler`.
public final class VNSequenceRequestHandler {
    private let sequence = SequenceRequestHandler()

    /// A handler with no sequence started.
    public init() {}

    /// Performs `requests` on the next frame, the image file at `imageURL`.
    public func perform(_ requests: [VNRequest], onImageURL imageURL: URL) throws {
        try perform(requests, on: Result { try VisionImage(contentsOf: imageURL) })
    }

    /// Performs `requests` on the next frame, the encoded image `imageData`.
    public func perform(_ requests: [VNRequest], onImageData imageData: Data) throws {
        try perform(requests, on: Result { try VisionImage(data: imageData) })
    }

    /// Performs `requests` on the next frame, SwiftVision's decoded image or video frame, in place of
    /// Vision's `CVPixelBuffer` or `CMSampleBuffer`.
    public func perform(_ requests: [VNRequest], on image: VisionImage) throws {
        try perform(requests, on: .success(image))
    }

    /// Performs `requests` on the next frame, `image` shown in `orientation` (a camera held sideways), as
    /// Vision's `perform(_:on:orientation:)`.
    public func perform(_ requests: [VNRequest], on image: VisionImage, orientation: CGImagePropertyOrientation) throws {
        try perform(requests, on: .success(image.with(orientation)))
    }

    /// Performs `requests` on the next frame, the image file at `imageURL` shown in `orientation`.
    public func perform(_ requests: [VNRequest], onImageURL imageURL: URL, orientation: CGImagePropertyOrientation) throws {
        try perform(requests, on: Result { try VisionImage(contentsOf: imageURL).with(orientation) })
    }

    private func perform(_ requests: [VNRequest], on image: Result<VisionImage, any Error>) throws {
        let errors = requests.compactMap { $0.perform(on: image, sequence: sequence) }
        if let error = errors.first { throw error }
    }
}

extension VisionImage {
    /// The same pixels shown in `orientation`.
    fileprivate func with(_ orientation: ImageOrientation) -> VisionImage {
        var image = self
        image.orientation = orientation
        return image
    }
}
