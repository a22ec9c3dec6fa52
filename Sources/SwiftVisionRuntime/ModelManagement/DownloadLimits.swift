/// What a model download may take: how large a model may be, and how slow a transfer may get before it
/// counts as stalled.
package struct DownloadLimits: Sendable, Hashable {
    /// The largest model accepted, in bytes. A larger declared size is refused before a byte is written,
    /// and a body that runs past it is discarded.
    package var maximumBytes: Int64
    /// The fewest bytes a second a transfer must move, on average over ``stallSeconds``.
    package var stallBytesPerSecond: Int
    /// How long a transfer may move fewer than ``stallBytesPerSecond`` bytes a second, or take to connect,
    /// before it is stopped as stalled.
    package var stallSeconds: Int

    /// 1 GiB; stalled below 1 KiB a second for 30 s.
    package static let standard = DownloadLimits(maximumBytes: 1 << 30, stallBytesPerSecond: 1024, stallSeconds: 30)
}
