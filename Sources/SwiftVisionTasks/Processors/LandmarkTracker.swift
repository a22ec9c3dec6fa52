import Foundation
import SwiftVisionCore

/// The state of a stream of faces, hands or bodies (opaque): each find's landmarks place the region its
/// ``LandmarkEngine`` looks at in the next frame, and the detector runs only to find what is not tracked,
/// as the engine's ``LandmarkTracking`` says. A track keeps its ID while the landmarks find it; one lost
/// and found again gets a new one.
public struct LandmarkTracker: Sendable {
    private struct Track: Sendable {
        let id: Int
        var region: RotatedRect
        /// The filters that steady the points placing the region, for an engine that keeps them.
        var filters: [OneEuroFilter] = []
    }

    private var tracks: [Track] = []
    private var nextID = 1
    private var framesSinceDetection = 0
    private var sceneCuts = SceneCutDetector()
    /// How many frames ran the detector so far.
    public private(set) var detectorRuns = 0

    /// The finds of the next frame; with `endsTracksAtCuts`, a hard cut before it ends every track.
    mutating func next<Engine: LandmarkEngine>(
        in image: VisionImage, engine: Engine, endsTracksAtCuts: Bool = false
    ) throws -> [Engine.Found] {
        try image.findingUnmirrored { try step(in: $0, engine: engine, endsTracksAtCuts: endsTracksAtCuts) }
    }

    private mutating func step<Engine: LandmarkEngine>(
        in image: VisionImage, engine: Engine, endsTracksAtCuts: Bool
    ) throws -> [Engine.Found] {
        if endsTracksAtCuts, try sceneCuts.isCut(image) { tracks = [] }
        let limit = engine.maximumCount
        var found: [Engine.Found] = []
        var kept: [Track] = []
        func follow(_ track: Track, to find: Engine.Found) {
            var track = track
            track.region = engine.nextRegion(following: find, filters: &track.filters)
            kept.append(track)
            found.append(engine.identified(find, as: track.id))
        }
        switch engine.tracking {
        case .associatingRegions:
            var regions = tracks
            if tracks.count < limit {
                detectorRuns += 1
                regions = try engine.detections(in: image).map { newTrack(region: Engine.region(for: $0)) } + tracks
            }
            for track in Self.associated(regions, region: \.region) {
                guard let find = try engine.landmarks(in: image, region: track.region) else { continue }
                follow(track, to: find)
            }
        case .fillingGaps(let interval):
            for track in tracks {
                guard let find = try engine.landmarks(in: image, region: track.region),
                    !found.contains(where: { $0.boundingBox.intersectionOverUnion(with: find.boundingBox) > 0.5 })
                else { continue }
                follow(track, to: find)
            }
            framesSinceDetection += 1
            if found.count < limit, found.isEmpty || framesSinceDetection >= interval {
                framesSinceDetection = 0
                detectorRuns += 1
                for detection in try engine.detections(in: image) where found.count < limit {
                    let anchor = engine.anchor(of: detection)
                    guard !found.contains(where: { $0.boundingBox.contains(anchor) }), let find = try engine.start(detection, in: image)
                    else { continue }
                    follow(newTrack(region: Engine.region(for: detection)), to: find)
                }
            }
        }
        tracks = kept
        return found
    }

    private mutating func newTrack(region: RotatedRect) -> Track {
        defer { nextID += 1 }
        return Track(id: nextID, region: region)
    }

    /// MediaPipe's `AssociationNormRectCalculator` (minimum similarity 0.5): each item in turn replaces the
    /// items before it whose regions' boxes overlap its region's box by more than 0.5 IoU, rotation ignored.
    static func associated<Item>(_ items: [Item], region: (Item) -> RotatedRect) -> [Item] {
        func box(_ rect: RotatedRect) -> CGRect {
            CGRect(
                x: rect.center.x - rect.size.width / 2, y: rect.center.y - rect.size.height / 2, width: rect.size.width,
                height: rect.size.height)
        }
        var kept: [Item] = []
        for item in items {
            let itemBox = box(region(item))
            kept.removeAll { box(region($0)).intersectionOverUnion(with: itemBox) > 0.5 }
            kept.append(item)
        }
        return kept
    }
}

extension VisionTask where StreamState == LandmarkTracker {
    /// A stream with nothing tracked yet.
    public func makeStreamState() -> LandmarkTracker { LandmarkTracker() }
}
