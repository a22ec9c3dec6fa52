import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// The state of pose tracking in a video (opaque), as MediaPipe's pose landmark graph keeps it: the
/// landmarks of one frame place the next frame's crop, and the detector runs only while fewer poses are
/// tracked than asked for (with one pose: on the first frame and whenever the pose is lost). Landmarks
/// are not smoothed: each frame reports the model's own landmarks, as MediaPipe with `smooth_landmarks`
/// off.
public struct PoseTracker: Sendable {
    private var regions: [RotatedRect] = []
    /// How many frames ran the pose detector so far.
    public private(set) var detectorRuns = 0

    /// The poses of the next frame.
    mutating func poses(in image: VisionImage, analyzer: PoseAnalyzer) throws -> [PoseAnalysis] {
        if image.orientation.isMirrored {
            return try poses(in: image.mirrored(), analyzer: analyzer).map { $0.mirrored(inWidth: Double(image.width)) }
        }
        var found: [PoseAnalysis] = []
        for region in regions {
            guard let pose = try analyzer.landmarks(in: image, region: region), !found.contains(where: { $0.overlaps(pose) }) else {
                continue
            }
            found.append(pose)
        }
        let limit = analyzer.configuration.maximumPoses
        if found.count < limit {
            detectorRuns += 1
            for detection in try analyzer.detections(in: image) where found.count < limit {
                let center = detection.keypoints[0]
                guard !found.contains(where: { $0.boundingBox.contains(center) }),
                    let pose = try analyzer.landmarks(in: image, region: PoseAnalyzer.region(for: detection))
                else { continue }
                found.append(pose)
            }
        }
        regions = found.map(\.nextRegion)
        return found
    }
}

extension PoseAnalysis {
    /// Whether the two poses are one body found twice.
    func overlaps(_ other: PoseAnalysis) -> Bool {
        boundingBox.intersectionOverUnion(with: other.boundingBox) > 0.5
    }
}
