extension Duration {
    /// The duration in milliseconds, with its fraction: latencies, stage times, bench samples.
    package var inMilliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }

    /// The duration in whole milliseconds, the fraction dropped: frame times, time-outs.
    package var wholeMilliseconds: Int {
        Int(components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
    }
}
