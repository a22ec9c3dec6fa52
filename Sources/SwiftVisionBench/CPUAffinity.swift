import Foundation

/// The CPUs this process may run on, through glibc's functions looked up at run time (Swift does not
/// import them).
enum CPUAffinity {
    fileprivate typealias AffinityFunction = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
    private typealias CurrentCPUFunction = @convention(c) () -> Int32

    /// The CPU that ``onOneCPU(_:)`` holds the calling thread to.
    struct PinnedCPU {
        /// The CPU's number.
        var number: Int
        fileprivate var allowed: [UInt64]
        fileprivate var pinned: [UInt64]
        fileprivate var set: AffinityFunction

        /// Runs `body` with the calling thread allowed on the CPUs it was allowed on before the pinning
        /// (threads it starts meanwhile too), then holds it to ``number`` again.
        func unpinned<Result>(_ body: () throws -> Result) rethrows -> Result {
            var (allowed, pinned) = (allowed, pinned)
            _ = allowed.withUnsafeMutableBytes { set(0, $0.count, $0.baseAddress!) }
            defer { _ = pinned.withUnsafeMutableBytes { set(0, $0.count, $0.baseAddress!) } }
            return try body()
        }
    }

    /// Runs `body` with the calling thread, and the processes it starts meanwhile, allowed only on the CPU it
    /// runs on now, which `body` is given (nil when the CPUs could not be set: then it runs as before);
    /// the CPUs allowed before are allowed again afterwards. Two processes that take turns on one CPU meet
    /// the same load from the rest of the host.
    static func onOneCPU<Result>(_ body: (PinnedCPU?) throws -> Result) rethrows -> Result {
        guard let current = dlsym(dlopen(nil, RTLD_NOW), "sched_getcpu").map({ unsafeBitCast($0, to: CurrentCPUFunction.self) })
        else { return try body(nil) }
        let cpu = Int(current())
        guard cpu >= 0, cpu < 1024 else { return try body(nil) }
        return try allowing(cpu..<cpu + 1) { sets in
            try body(sets.map { PinnedCPU(number: cpu, allowed: $0.allowed, pinned: $0.chosen, set: $0.set) })
        }
    }

    /// Runs `body` with the calling thread, and the processes it starts meanwhile, allowed only on `cpus`
    /// (as many of them as the host has); the CPUs allowed before are allowed again afterwards. Where the
    /// CPUs cannot be set, `body` runs as before.
    static func onCPUs<Result>(_ cpus: Range<Int>, _ body: () throws -> Result) rethrows -> Result {
        try allowing(cpus) { _ in try body() }
    }

    /// The CPU sets around a call of `body`: those allowed before, those chosen, and glibc's setter.
    private struct Sets {
        var allowed: [UInt64]
        var chosen: [UInt64]
        var set: AffinityFunction
    }

    /// Runs `body` with the calling thread allowed only on `cpus`, given the sets (nil, and nothing changed,
    /// where glibc's functions are missing or refuse); the CPUs allowed before are allowed again afterwards.
    private static func allowing<Result>(_ cpus: Range<Int>, _ body: (Sets?) throws -> Result) rethrows -> Result {
        let library = dlopen(nil, RTLD_NOW)
        guard let get = dlsym(library, "sched_getaffinity").map({ unsafeBitCast($0, to: AffinityFunction.self) }),
              let set = dlsym(library, "sched_setaffinity").map({ unsafeBitCast($0, to: AffinityFunction.self) })
        else { return try body(nil) }
        // A cpu_set_t: 1024 bits.
        var allowed = [UInt64](repeating: 0, count: 16)
        guard allowed.withUnsafeMutableBytes({ get(0, $0.count, $0.baseAddress!) }) == 0 else { return try body(nil) }
        var chosen = [UInt64](repeating: 0, count: 16)
        for cpu in cpus.clamped(to: 0..<1024) { chosen[cpu / 64] |= 1 << UInt64(cpu % 64) }
        guard chosen.withUnsafeMutableBytes({ set(0, $0.count, $0.baseAddress!) }) == 0 else { return try body(nil) }
        defer { _ = allowed.withUnsafeMutableBytes { set(0, $0.count, $0.baseAddress!) } }
        return try body(Sets(allowed: allowed, chosen: chosen, set: set))
    }
}
