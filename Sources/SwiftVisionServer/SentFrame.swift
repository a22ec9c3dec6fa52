/// A frame a live stream accepted: its number in the stream, and how many of the stream's frames had
/// been refused before it, from which a result tells how many frames before it were dropped.
struct SentFrame: Sendable {
    /// The frame's number, counting every binary message of the stream from 0.
    let index: Int
    /// The stream's frames refused before this one.
    let refusedBefore: Int
}
