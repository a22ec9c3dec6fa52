/// One JSON line of a task, as the command line prints it and the service streams it: `"file"` (and,
/// for frames, `"frame"`, `"timestampMs"` and, in a live stream, `"dropped"`), then the fields of the
/// task's output, in one object.
public struct TaskLine<Output: Encodable>: Encodable {
    /// The input the line belongs to; nil in the service's stream.
    public var file: String?
    /// The frame's position in its video or stream.
    public var frame: Int?
    /// The frame's time in milliseconds.
    public var timestampMs: Int?
    /// Frames dropped by flow limiting since the previous line.
    public var dropped: Int?
    /// The task's output.
    public var output: Output

    /// A line of `output` for `file` (and `frame` at `timestampMs`, after `dropped` frames).
    public init(file: String? = nil, frame: Int? = nil, timestampMs: Int? = nil, dropped: Int? = nil, output: Output) {
        self.file = file
        self.frame = frame
        self.timestampMs = timestampMs
        self.dropped = dropped
        self.output = output
    }

    private enum CodingKeys: String, CodingKey { case file, frame, timestampMs, dropped }

    /// Encodes the line's own keys and the output's fields into the same object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(file, forKey: .file)
        try container.encodeIfPresent(frame, forKey: .frame)
        try container.encodeIfPresent(timestampMs, forKey: .timestampMs)
        try container.encodeIfPresent(dropped, forKey: .dropped)
        try output.encode(to: encoder)
    }
}
