import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// The state of face tracking in a video (opaque): follows faces through the frames of a video as MediaPipe's face mesh graph does: each tracked face's
/// mesh places the next frame's crop, and the detector runs only to find new faces (every few frames,
/// or at once when no face is tracked). A face keeps its ID while its mesh finds it; a face that is lost
/// and found again gets a new one.
public struct FaceTracker: Sendable {
    /// Frames between detector runs while faces are tracked.
    static let detectionInterval = 5

    private struct Track {
        let id: Int
        var region: RotatedRect
    }

    private var tracks: [Track] = []
    private var nextID = 1
    private var framesSinceDetection = 0
    /// Finds the cuts at which every track ends.
    private(set) var sceneCuts = SceneCutDetector()

    /// The faces of the next frame; with `endsTracksAtCuts`, a hard cut before it ends every track.
    mutating func faces(in image: VisionImage, analyzer: FaceAnalyzer, landmarks: Bool, endsTracksAtCuts: Bool = true) throws -> [FaceAnalysis] {
        if image.orientation.isMirrored {
            return try faces(in: image.mirrored(), analyzer: analyzer, landmarks: landmarks, endsTracksAtCuts: endsTracksAtCuts)
                .map { $0.mirrored(inWidth: Double(image.width)) }
        }
        if endsTracksAtCuts, try sceneCuts.isCut(image) { tracks = [] }
        var found: [FaceAnalysis] = []
        var kept: [Track] = []
        for var track in tracks {
            guard let (face, next) = try analyzer.track(in: image, region: track.region, landmarks: landmarks),
                !found.contains(where: { $0.boundingBox.intersectionOverUnion(with: face.boundingBox) > 0.5 })
            else { continue }
            track.region = next
            kept.append(track)
            found.append(with(face) { $0.trackingID = track.id })
        }
        tracks = kept
        framesSinceDetection += 1
        let limit = analyzer.configuration.maximumFaces
        if tracks.count < limit, tracks.isEmpty || framesSinceDetection >= Self.detectionInterval {
            framesSinceDetection = 0
            for detection in try analyzer.detections(in: image) where tracks.count < limit {
                let center = CGPoint(x: detection.boundingBox.midX, y: detection.boundingBox.midY)
                guard !found.contains(where: { $0.boundingBox.contains(center) }),
                    let (face, next) = try analyzer.startTracking(detection, in: image, landmarks: landmarks)
                else { continue }
                tracks.append(Track(id: nextID, region: next))
                found.append(with(face) { $0.trackingID = nextID })
                nextID += 1
            }
        }
        return found
    }
}
