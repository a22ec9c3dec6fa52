import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Gives detections identities across video frames with the association scheme of ByteTrack
/// (Zhang et al., 2022): confident detections are matched to the tracks' predicted boxes by IoU, then
/// the remaining tracks are rescued with low-score detections, new tracks start only from confident
/// unmatched detections, and a lost track is kept for a while so that an object hidden for a few frames
/// keeps its ID. Motion is a constant velocity of the centre, smoothed by an alpha-beta filter; matching
/// is greedy by IoU.
public struct ByteTracker: Sendable {
    struct Configuration: Sendable, Hashable {
        /// Detections at or above this score are matched first.
        var highScore: Float = 0.5
        /// Detections below this score are ignored.
        var lowScore: Float = 0.1
        /// An unmatched detection starts a track only at or above this score.
        var newTrackScore: Float = 0.6
        var firstMatchIoU = 0.2
        var secondMatchIoU = 0.5
        /// Frames a track may go unseen before it ends.
        var lostFrameLimit = 30
    }

    private struct Track {
        let id: Int
        var box: CGRect
        /// Motion of the centre per frame. The size is not extrapolated: partly hidden objects shrink
        /// their boxes, and a shrinking prediction would lose them.
        var velocity = (dx: 0.0, dy: 0.0)
        var framesUnseen = 0

        var predicted: CGRect {
            let steps = Double(framesUnseen + 1)
            return box.offsetBy(dx: velocity.dx * steps, dy: velocity.dy * steps)
        }

        mutating func update(with measured: CGRect) {
            let steps = Double(framesUnseen + 1)
            let gain = 0.5
            velocity.dx += gain * ((measured.midX - box.midX) / steps - velocity.dx)
            velocity.dy += gain * ((measured.midY - box.midY) / steps - velocity.dy)
            box = measured
            framesUnseen = 0
        }
    }

    let configuration: Configuration
    private var tracks: [Track] = []
    private var nextID = 1
    /// Finds the cuts at which every track ends.
    var sceneCuts = SceneCutDetector()

    init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Ends every track: objects found from now on get new IDs.
    mutating func endTracks() {
        tracks = []
    }

    /// Associates the next frame's detections with the tracks; returns the detections that belong to a
    /// track, each with its track's ID.
    mutating func update(with detections: [Detection]) -> [(id: Int, detection: Detection)] {
        let usable = detections.indices.filter { detections[$0].score >= configuration.lowScore }
        let high = usable.filter { detections[$0].score >= configuration.highScore }
        let low = usable.filter { detections[$0].score < configuration.highScore }
        let predictions = tracks.map(\.predicted)

        let first = Self.match(Array(tracks.indices), high, predictions, detections, minimumIoU: configuration.firstMatchIoU)
        let unmatchedTracks = tracks.indices.filter { track in
            tracks[track].framesUnseen == 0 && !first.contains { $0.track == track }
        }
        let second = Self.match(unmatchedTracks, low, predictions, detections, minimumIoU: configuration.secondMatchIoU)

        var results: [(id: Int, detection: Detection)] = []
        var matchedTracks = Set<Int>()
        for (track, detection) in first + second {
            tracks[track].update(with: detections[detection].boundingBox)
            matchedTracks.insert(track)
            results.append((tracks[track].id, detections[detection]))
        }
        for index in tracks.indices where !matchedTracks.contains(index) { tracks[index].framesUnseen += 1 }
        tracks.removeAll { $0.framesUnseen > configuration.lostFrameLimit }

        let usedDetections = Set((first + second).map(\.detection))
        for index in high where !usedDetections.contains(index) && detections[index].score >= configuration.newTrackScore {
            tracks.append(Track(id: nextID, box: detections[index].boundingBox))
            results.append((nextID, detections[index]))
            nextID += 1
        }
        return results
    }

    /// Greedy matching of tracks to detections by decreasing IoU of predicted and detected boxes.
    private static func match(
        _ tracks: [Int], _ candidates: [Int], _ predictions: [CGRect], _ detections: [Detection], minimumIoU: Double
    ) -> [(track: Int, detection: Int)] {
        var pairs: [(track: Int, detection: Int, iou: Double)] = []
        for track in tracks {
            for detection in candidates {
                let iou = predictions[track].intersectionOverUnion(with: detections[detection].boundingBox)
                if iou >= minimumIoU { pairs.append((track, detection, iou)) }
            }
        }
        var usedTracks = Set<Int>()
        var usedDetections = Set<Int>()
        var matches: [(track: Int, detection: Int)] = []
        for pair in pairs.sorted(by: { $0.iou > $1.iou })
        where !usedTracks.contains(pair.track) && !usedDetections.contains(pair.detection) {
            usedTracks.insert(pair.track)
            usedDetections.insert(pair.detection)
            matches.append((pair.track, pair.detection))
        }
        return matches
    }
}
