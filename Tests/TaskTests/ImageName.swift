import SwiftVisionCore

/// SwiftVision's image in this target's files, including those that import ML Kit's modules, whose
/// `VisionImage` is ML Kit's class.
typealias VisionImage = SwiftVisionCore.VisionImage
