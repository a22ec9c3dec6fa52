import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// The state of pose tracking in a video (opaque), as MediaPipe's pose landmark graph keeps it: the
/// landmarks of one frame place the next frame's crop, and the detector runs only while fewer poses are
/// tracked than asked for (with one pose: on the first frame and whenever the pose is lost).
///
/// As in MediaPipe, the two auxiliary landmarks that place the crop pass through a One Euro filter
/// (`pose_landmark_filtering.pbtxt`: minimum cutoff 0.01, beta 10, derivative cutoff 1, speeds relative
/// to the body's size), which keeps the crop steady; frames are taken as 30 per second, as MediaPipe
/// Python's solutions time them. The reported landmarks are not smoothed (MediaPipe's `smooth_landmarks`
/// off). A lost pose forgets its filter.
public struct PoseTracker: Sendable {
    private struct Track: Sendable {
        var region: RotatedRect
        /// x and y filters of the two auxiliary landmarks.
        var filters = [OneEuroFilter](repeating: OneEuroFilter(minimumCutoff: 0.01, beta: 10, derivativeCutoff: 1), count: 4)

        /// Filters the auxiliary landmarks of `pose` and places the next crop with them.
        mutating func follow(_ pose: PoseAnalysis) {
            let (center, scalePoint) = (pose.auxiliary[0], pose.auxiliary[1])
            // LandmarksSmoothingCalculator's object scale: the size of the square the raw points align.
            let scale = 1 / max(RotatedRect(aligningCenter: center, scalePoint: scalePoint).size.width, 1e-6)
            let raw = [center.x, center.y, scalePoint.x, scalePoint.y]
            let smoothed = raw.indices.map { filters[$0].filter(raw[$0], scale: scale) }
            region = PoseAnalyzer.region(
                center: CGPoint(x: smoothed[0], y: smoothed[1]), scalePoint: CGPoint(x: smoothed[2], y: smoothed[3]))
        }
    }

    private var tracks: [Track] = []
    /// How many frames ran the pose detector so far.
    public private(set) var detectorRuns = 0

    /// The poses of the next frame.
    mutating func poses(in image: VisionImage, analyzer: PoseAnalyzer) throws -> [PoseAnalysis] {
        if image.orientation.isMirrored {
            return try poses(in: image.mirrored(), analyzer: analyzer).map { $0.mirrored(inWidth: Double(image.width)) }
        }
        var found: [PoseAnalysis] = []
        var kept: [Track] = []
        for var track in tracks {
            guard let pose = try analyzer.landmarks(in: image, region: track.region), !found.contains(where: { $0.overlaps(pose) }) else {
                continue
            }
            track.follow(pose)
            kept.append(track)
            found.append(pose)
        }
        let limit = analyzer.configuration.maximumPoses
        if found.count < limit {
            detectorRuns += 1
            for detection in try analyzer.detections(in: image) where found.count < limit {
                let region = PoseAnalyzer.region(for: detection)
                guard !found.contains(where: { $0.boundingBox.contains(detection.keypoints[0]) }),
                    let pose = try analyzer.landmarks(in: image, region: region)
                else { continue }
                var track = Track(region: region)
                track.follow(pose)
                kept.append(track)
                found.append(pose)
            }
        }
        tracks = kept
        return found
    }
}

extension PoseAnalysis {
    /// Whether the two poses are one body found twice.
    func overlaps(_ other: PoseAnalysis) -> Bool {
        boundingBox.intersectionOverUnion(with: other.boundingBox) > 0.5
    }
}
