extension Duration {
    /// The duration in whole nanoseconds, the fraction dropped, at most a million seconds either way (so that it
    /// never overflows): what the metrics' timers, NIO's time amounts and Dispatch's intervals take.
    var wholeNanoseconds: Int64 {
        let seconds = max(min(components.seconds, 1_000_000), -1_000_000)
        return seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }

    /// The duration in milliseconds, rounded to `decimals` (0 to 6) places, as `%.3f` would write it for
    /// three (`3.104`), written without Foundation's formatter: the service writes some on every request.
    func milliseconds(decimals: Int) -> String {
        let decimals = min(max(decimals, 0), 6)
        var unitsPerMillisecond: UInt64 = 1
        for _ in 0..<decimals { unitsPerMillisecond *= 10 }
        let nanosecondsPerUnit = 1_000_000 / unitsPerMillisecond
        let nanoseconds = wholeNanoseconds
        let units = (nanoseconds.magnitude + nanosecondsPerUnit / 2) / nanosecondsPerUnit
        let whole = (nanoseconds < 0 && units > 0 ? "-" : "") + String(units / unitsPerMillisecond)
        guard decimals > 0 else { return whole }
        let fraction = String(units % unitsPerMillisecond)
        return whole + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
