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
        let library = dlopen(nil, RTLD_NOW)
        guard let get = dlsym(library, "sched_getaffinity").map({ unsafeBitCast($0, to: AffinityFunction.self) }),
              let set = dlsym(library, "sched_setaffinity").map({ unsafeBitCast($0, to: AffinityFunction.self) }),
              let current = dlsym(library, "sched_getcpu").map({ unsafeBitCast($0, to: CurrentCPUFunction.self) })
        else { return try body(nil) }
        // A cpu_set_t: 1024 bits.
        var allowed = [UInt64](repeating: 0, count: 16)
        let cpu = Int(current())
        guard cpu >= 0, cpu < 1024, allowed.withUnsafeMutableBytes({ get(0, $0.count, $0.baseAddress!) }) == 0 else {
            return try body(nil)
        }
        var one = [UInt64](repeating: 0, count: 16)
        one[cpu / 64] = 1 << UInt64(cpu % 64)
        guard one.withUnsafeMutableBytes({ set(0, $0.count, $0.baseAddress!) }) == 0 else { return try body(nil) }
        defer { _ = allowed.withUnsafeMutableBytes { set(0, $0.count, $0.baseAddress!) } }
        return try body(PinnedCPU(number: cpu, allowed: allowed, pinned: one, set: set))
    }

    /// Runs `body` with the calling thread, and the processes it starts meanwhile, allowed only on `cpus`
    /// (as many of them as the host has); the CPUs allowed before are allowed again afterwards. Where the
    /// CPUs cannot be set, `body` runs as before.
    static func onCPUs<Result>(_ cpus: Range<Int>, _ body: () throws -> Result) rethrows -> Result {
        let library = dlopen(nil, RTLD_NOW)
        guard let get = dlsym(library, "sched_getaffinity").map({ unsafeBitCast($0, to: AffinityFunction.self) }),
              let set = dlsym(library, "sched_setaffinity").map({ unsafeBitCast($0, to: AffinityFunction.self) })
        else { return try body() }
        // cpu_set_t: 1024 bits.
        var allowed = [UInt64](repeating: 0, count: 16)
        guard allowed.withUnsafeMutableBytes({ get(0, $0.count, $0.baseAddress!) }) == 0 else { return try body() }
        var chosen = [UInt64](repeating: 0, count: 16)
        for cpu in cpus.clamped(to: 0..<1024) { chosen[cpu / 64] |= 1 << UInt64(cpu % 64) }
        guard chosen.withUnsafeMutableBytes({ set(0, $0.count, $0.baseAddress!) }) == 0 else { return try body() }
        defer { _ = allowed.withUnsafeMutableBytes { set(0, $0.count, $0.baseAddress!) } }
        return try body()
    }
}
