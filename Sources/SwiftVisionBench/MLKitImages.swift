import SwiftVision

/// SwiftVision's image in every file of the benchmarks, including those that import ML Kit's modules,
/// whose `VisionImage` is ML Kit's class.
typealias VisionImage = SwiftVisionCore.VisionImage
