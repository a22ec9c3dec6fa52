import Foundation

/// An object found by the objects task, as ML Kit's `DetectedObject`.
public struct DetectedObject: Sendable, Equatable, Codable {
    /// The object's box in pixels of the upright image.
    public let frame: CGRect
    /// Identifies the object across frames in stream mode; nil in single-image mode.
    public let trackingID: Int?
    /// Labels, most confident first; empty without classification.
    public let labels: [ClassLabel]

    /// An object in `frame` with `labels`.
    public init(frame: CGRect, trackingID: Int?, labels: [ClassLabel]) {
        self.frame = frame
        self.trackingID = trackingID
        self.labels = labels
    }

    enum CodingKeys: String, CodingKey { case frame, trackingID, labels }

    /// Decodes `{"frame","trackingID","labels"}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        frame = try container.decode(PixelRect.self, forKey: .frame).rect
        trackingID = try container.decodeIfPresent(Int.self, forKey: .trackingID)
        labels = try container.decode([ClassLabel].self, forKey: .labels)
    }

    /// Encodes `{"frame","trackingID","labels"}`, the frame as `{"x","y","width","height"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(PixelRect(frame), forKey: .frame)
        try container.encodeIfPresent(trackingID, forKey: .trackingID)
        try container.encode(labels, forKey: .labels)
    }
}
