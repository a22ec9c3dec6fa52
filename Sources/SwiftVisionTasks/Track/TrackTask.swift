import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Follows objects from seed boxes in the first frame of a stream, frame after frame, with OpenCV's
/// KCF (`fast`) or CSRT (`accurate`) trackers, each box checked against the seed's appearance: the
/// confidence is how much the box still looks like the seed, and a search corrects a tracker that stayed
/// on what hid the object (``SingleObjectTracker``). An object that left the frame is lost (confidence 0,
/// the box stays at its last place); a widening search around that place finds it again when it comes
/// back, and the track goes on.
public struct TrackTask: VisionTask {
    /// Speed against precision of the tracker.
    public enum Level: String, Codable, Sendable, CaseIterable {
        /// OpenCV's KCF tracker: hundreds of frames per second, loses objects that change scale.
        case fast
        /// OpenCV's CSRT tracker: slower, follows scale changes and partial occlusion.
        case accurate
    }

    /// The settings of the tracking task, named as the `track` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// The seed boxes in pixels of the first frame, one per object.
        public var boxes: [PixelRect] = []
        /// The tracker.
        public var level = Level.accurate

        /// No seed yet, CSRT.
        public init() {}

        /// The largest coordinate or side a seed box may have, in pixels: beyond the side of any image the
        /// library decodes (2²⁷ pixels at most), so that no seed of a real image is refused, and small enough
        /// that no arithmetic on a box overflows.
        public static let largestCoordinate = 1_000_000.0

        func validate() throws {
            for box in boxes {
                let values = [box.x, box.y, box.width, box.height]
                guard values.allSatisfy({ $0.isFinite && abs($0) <= Self.largestCoordinate }), box.width > 0, box.height > 0 else {
                    throw VisionTaskError.invalidOption(
                        "a box to track needs finite coordinates within ±\(Int(Self.largestCoordinate)) and a positive size")
                }
            }
        }
    }

    /// One followed object.
    public struct Track: Codable, Sendable, Equatable {
        /// The object's number, from 1 in the order of the seed boxes.
        public var id: Int
        /// Where the object is, in upright pixels (its last place once lost).
        public var boundingBox: PixelRect
        /// How much the box's content still looks like the seed, 0–1; 0 once lost.
        public var confidence: Float
        /// Whether the object is lost in this frame; it turns false again when the object is found again.
        public var lost: Bool

        enum CodingKeys: String, CodingKey { case id, boundingBox, confidence, lost }

        /// A track of object `id`.
        public init(id: Int, boundingBox: PixelRect, confidence: Float, lost: Bool) {
            self.id = id
            self.boundingBox = boundingBox
            self.confidence = confidence
            self.lost = lost
        }

        /// Decodes `{"id","boundingBox","confidence","lost"}`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            boundingBox = try container.decode(PixelRect.self, forKey: .boundingBox)
            confidence = try container.decode(Float.self, forKey: .confidence)
            lost = try container.decode(Bool.self, forKey: .lost)
        }

        /// Encodes the track, its confidence rounded to three decimals.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(boundingBox, forKey: .boundingBox)
            try container.encode(confidence.rounded(toPlaces: 3), forKey: .confidence)
            try container.encode(lost, forKey: .lost)
        }
    }

    /// The objects in one frame.
    public struct Output: Codable, Sendable, Equatable {
        /// One track per seed box, in the order of the boxes.
        public var tracks: [Track]

        /// The tracks `tracks`.
        public init(tracks: [Track]) {
            self.tracks = tracks
        }
    }

    /// The trackers of a stream, started on its first frame.
    public struct StreamState: Sendable {
        var trackers: [SingleObjectTracker]?
    }

    /// Named `track`; loads the embeddings task's embedder only to find an object again whose tracker drifted off
    /// it (``SingleObjectTracker``).
    public static let descriptor = TaskDescriptor(
        name: "track", title: "Track", summary: "Objects followed from seed boxes (KCF or CSRT)", tracksAcrossFrames: true,
        models: [EmbeddingsTask.baseModelName], hiddenOptions: ["boxes"])
    /// The default settings.
    public static var defaultOptions: Options { Options() }

    /// The settings the task was made with.
    public let options: Options
    private let store: ModelStore

    /// Checks the seed boxes; the learned embedder is loaded from `store` only if a tracker needs it.
    public init(options: Options, store: ModelStore) throws {
        try options.validate()
        self.options = options
        self.store = store
    }

    /// A stream whose trackers start on its first frame.
    public func makeStreamState() -> StreamState { StreamState() }

    /// Without a stream there is nothing to follow: the seeds, as they are. An image alone without a seed
    /// is refused (a stream may start without one and be given its seeds later).
    public func output(for image: VisionImage) throws -> Output {
        guard !options.boxes.isEmpty else { throw VisionTaskError.invalidOption("track needs at least one box=x,y,width,height") }
        return seeds
    }

    /// The seed boxes as tracks.
    private var seeds: Output {
        Output(tracks: options.boxes.enumerated().map { Track(id: $0 + 1, boundingBox: $1, confidence: 1, lost: false) })
    }

    /// The tracks in the next frame of a stream; on the first frame, the seed boxes as they are.
    public func output(forFrame image: VisionImage, state: inout StreamState) throws -> Output {
        guard let trackers = state.trackers else {
            state.trackers = try options.boxes.map {
                try SingleObjectTracker(kind: options.level == .fast ? .kcf : .csrt, image: image, box: $0.rect, store: store)
            }
            return seeds
        }
        return Output(tracks: try trackers.enumerated().map { index, tracker in
            let (box, confidence) = try tracker.update(with: image)
            return Track(id: index + 1, boundingBox: PixelRect(box), confidence: confidence, lost: tracker.isLost)
        })
    }
}
