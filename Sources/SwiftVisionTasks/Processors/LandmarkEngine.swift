import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// A face, hand or body that a ``LandmarkEngine`` finds, in pixels of the upright image.
protocol LandmarkFinding: Sendable {
    /// The box around it, which tells one found twice.
    var boundingBox: CGRect { get }
    /// The same one seen in a mirror of an image `width` wide.
    func mirrored(inWidth width: Double) -> Self
}

/// How a ``LandmarkTracker`` shares the frames of a stream between an engine's detector and the regions
/// it tracks, as MediaPipe's graphs do.
enum LandmarkTracking: Sendable, Equatable {
    /// MediaPipe's hand tracking graph (`hand_landmark_tracking_cpu.pbtxt`): the detector runs, before any
    /// landmarks, on the frames that start with fewer tracked regions than asked for; its regions come before
    /// the tracked ones, and each region replaces the earlier ones it overlaps
    /// (``LandmarkTracker/associated(_:region:)``).
    case associatingRegions
    /// MediaPipe's pose and face mesh graphs: the tracked regions go first, and a find that overlaps an
    /// earlier one by more than half is dropped; while fewer are found than asked for, the detector runs
    /// (every `interval` frames while any is tracked), and each detection whose anchor no find holds
    /// starts a track.
    case fillingGaps(interval: Int)
}

/// An engine that finds faces, hands or bodies as MediaPipe's landmark graphs do, in three steps: its
/// detector finds regions, its landmark model fits landmarks in a region, and the landmarks predict the
/// region to look at in the next frame. ``analyze(_:)`` runs it on an image on its own, a
/// ``LandmarkTracker`` through the frames of a stream.
protocol LandmarkEngine: Sendable {
    /// What the engine finds.
    associatedtype Found: LandmarkFinding

    /// Most finds to report.
    var maximumCount: Int { get }
    /// How a stream shares its frames between the detector and the tracked regions.
    var tracking: LandmarkTracking { get }

    /// Finds regions: the detections in `image`, the best first.
    func detections(in image: VisionImage) throws -> [Detection]
    /// The region the landmark model should see for a fresh detection.
    static func region(for detection: Detection) -> RotatedRect
    /// Fits landmarks in a region: what the landmark model finds in `region` of `image`, if anything.
    func landmarks(in image: VisionImage, region: RotatedRect) throws -> Found?
    /// Predicts the next region: where to look for `found` in the next frame. `filters` are the track's, for
    /// an engine that steadies the points placing the region (empty when the track starts).
    func nextRegion(following found: Found, filters: inout [OneEuroFilter]) -> RotatedRect

    /// What a fresh detection shows, if anything (by default the landmarks in its region).
    func start(_ detection: Detection, in image: VisionImage) throws -> Found?
    /// The point of a detection that, inside the box of a find, shows it found already (by default the
    /// centre of its box).
    func anchor(of detection: Detection) -> CGPoint
    /// `found` as the track `id` reports it (by default as it is).
    func identified(_ found: Found, as id: Int) -> Found
    /// The finds in `image`, which is not mirrored, on its own (by default the landmarks in each detection's
    /// region, regions associated as ``LandmarkTracking/associatingRegions`` says).
    func analyzeUnmirrored(_ image: VisionImage) throws -> [Found]
}

extension LandmarkEngine {
    func start(_ detection: Detection, in image: VisionImage) throws -> Found? {
        try landmarks(in: image, region: Self.region(for: detection))
    }

    func anchor(of detection: Detection) -> CGPoint {
        CGPoint(x: detection.boundingBox.midX, y: detection.boundingBox.midY)
    }

    func identified(_ found: Found, as id: Int) -> Found { found }

    func analyzeUnmirrored(_ image: VisionImage) throws -> [Found] {
        let regions = try detections(in: image).map(Self.region(for:))
        let kept = tracking == .associatingRegions ? LandmarkTracker.associated(regions) { $0 } : regions
        return try kept.compactMap { try landmarks(in: image, region: $0) }
    }

    /// The finds in `image` on its own, most confident first.
    func analyze(_ image: VisionImage) throws -> [Found] {
        try image.findingUnmirrored(analyzeUnmirrored)
    }
}

/// The settings MediaPipe's landmark graphs share (its pose and hand landmarkers' options).
struct LandmarkConfiguration: Sendable, Hashable {
    /// Most finds to report (`num_poses`, `num_hands`).
    var maximumCount: Int
    /// The detector's `min_score_thresh`.
    var minimumDetectionConfidence: Float
    /// The landmark model's flag below which a region holds nothing (the `ThresholdingCalculator`'s threshold).
    var minimumPresence: Float
    /// Threads for each model's inference.
    var threads: Int

    /// How the models compile.
    var compilation: LiteRT.CompilationOptions { LiteRT.CompilationOptions(threadCount: threads) }
}

/// The options of a task over one of MediaPipe's landmark graphs (pose, hands), named as the task names them.
protocol LandmarkTaskOptions {
    /// Most finds to report, and the option's name.
    var maximumCount: (value: Int, name: String) { get }
    /// Lowest detector score that starts a find, 0–1.
    var minDetectionConfidence: Float { get }
    /// Lowest flag of the landmark model that keeps a find, 0–1.
    var minPresenceConfidence: Float { get }
    /// Threads for each model's inference; nil for the default.
    var threads: Int? { get }
}

extension LandmarkConfiguration {
    /// The settings `options` give, once checked.
    init(checking options: some LandmarkTaskOptions) throws {
        try VisionTaskError.checkThreads(options.threads)
        try VisionTaskError.checkLandmarkOptions(
            count: options.maximumCount.value, named: options.maximumCount.name, minDetectionConfidence: options.minDetectionConfidence,
            minPresenceConfidence: options.minPresenceConfidence)
        self.init(
            maximumCount: options.maximumCount.value, minimumDetectionConfidence: options.minDetectionConfidence,
            minimumPresence: options.minPresenceConfidence, threads: options.threads ?? LiteRT.CompilationOptions.default.threadCount)
    }
}

extension VisionImage {
    /// What `find` finds in this image seen unmirrored, mirrored back into it: the models know faces, hands
    /// and bodies as a back camera sees them, so a mirrored image (a front camera's) is looked at unmirrored.
    func findingUnmirrored<Found: LandmarkFinding>(_ find: (VisionImage) throws -> [Found]) rethrows -> [Found] {
        guard orientation.isMirrored else { return try find(self) }
        return try find(mirrored()).map { $0.mirrored(inWidth: Double(width)) }
    }
}
