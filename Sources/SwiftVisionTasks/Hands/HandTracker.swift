import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// The state of hand tracking in a video (opaque), as MediaPipe's hand tracking graph
/// (`hand_landmark_tracking_cpu.pbtxt`) keeps it: each hand's landmarks place its next crop
/// (`hand_landmark_landmarks_to_roi.pbtxt`), and the palm detector runs only on frames that start with
/// fewer tracked hands than asked for; its new crops join the tracked ones unless they overlap them.
public struct HandTracker: Sendable {
    private var regions: [RotatedRect] = []
    /// How many frames ran the palm detector so far.
    public private(set) var detectorRuns = 0

    /// The hands of the next frame.
    mutating func hands(in image: VisionImage, analyzer: HandAnalyzer) throws -> [HandAnalysis] {
        if image.orientation.isMirrored {
            return try hands(in: image.mirrored(), analyzer: analyzer).map { $0.mirrored(inWidth: Double(image.width)) }
        }
        var candidates: [RotatedRect] = []
        if regions.count < analyzer.configuration.maximumHands {
            detectorRuns += 1
            candidates = try analyzer.palmRegions(in: image)
        }
        let found = try HandAnalyzer.associate(candidates + regions).compactMap { try analyzer.landmarks(in: image, region: $0) }
        regions = found.map(\.nextRegion)
        return found
    }
}
