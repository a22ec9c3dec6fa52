@_exported import MLKitCommon
import Foundation
import SwiftVisionCore

/// The image or camera frame an ML Kit detector analyses, as ML Kit's `VisionImage`.
///
/// On iOS it is made from a `UIImage` or a `CMSampleBuffer`; here from a file
/// (``init(contentsOf:)``, EXIF orientation honoured) or from SwiftVision's own image, such as a video
/// frame's `image` (``init(image:)``). As on iOS, ``orientation`` says how to turn the pixels upright and
/// may be set after the image is made.
public final class VisionImage {
    /// The orientation that turns the stored pixels upright (`UIImage.Orientation` on iOS): `.right` for a
    /// frame of a portrait phone's back camera, for example. Detectors report coordinates in the upright image.
    public var orientation: ImageOrientation
    /// The pixels as stored.
    private let pixels: SwiftVisionCore.VisionImage

    /// An image of SwiftVision's decoded image or video frame, in its orientation.
    public init(image: SwiftVisionCore.VisionImage) {
        pixels = image
        orientation = image.orientation
    }

    /// The image in the file at `url` (JPEG, PNG, WebP, BMP, TIFF, HEIF, AVIF or GIF), oriented by its EXIF orientation.
    /// A file that is missing or not a decodable image throws as ML Kit reports errors: an `NSError` in
    /// ``mlKitErrorDomain`` with ``MLKitErrorCode/invalidArgument``, SwiftVision's error under `NSUnderlyingErrorKey`.
    public convenience init(contentsOf url: URL) throws {
        do {
            self.init(image: try SwiftVisionCore.VisionImage(contentsOf: url))
        } catch {
            throw NSError.mlKit(error)
        }
    }

    /// The image as SwiftVision's tasks take it: the pixels with the current ``orientation``.
    package var taskImage: SwiftVisionCore.VisionImage {
        var image = pixels
        image.orientation = orientation
        return image
    }
}

extension SwiftVisionCore.VisionImage {
    /// This image as ML Kit's ``VisionImage``, for a program that imports SwiftVision as well (whose
    /// `VisionImage` is this type) and hands its decoded images or video frames to ML Kit's detectors.
    public var mlKitImage: MLKitVision.VisionImage {
        MLKitVision.VisionImage(image: self)
    }
}
