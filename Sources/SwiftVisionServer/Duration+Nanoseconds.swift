extension Duration {
    /// The duration in whole nanoseconds, the fraction dropped, at most a million seconds either way (so that it
    /// never overflows): what the metrics' timers, NIO's time amounts and Dispatch's intervals take.
    var wholeNanoseconds: Int64 {
        let seconds = max(min(components.seconds, 1_000_000), -1_000_000)
        return seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
