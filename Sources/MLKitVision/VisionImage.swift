@_exported import MLKitCommon
import SwiftVisionCore

/// The image or camera frame that every ML Kit detector takes, as ML Kit's `VisionImage`: made from a
/// file (`VisionImage(contentsOf:)`, EXIF orientation honoured) or from a decoded frame.
public typealias VisionImage = SwiftVisionCore.VisionImage
