import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// glibc's allocator, set for a process that decodes and analyses an image of a few megabytes again and
/// again: `swiftvision serve` on every request, and every other command on every photo or frame.
///
/// Left to itself, glibc gives a freed buffer of that size back to the system (its mmap threshold
/// follows the largest buffer freed, and an arena trims a free top past twice that), and the next
/// image faults its pages in again: 150–275 page faults a request for faces and labels on
/// `zidane.jpg` (1280×720) at 4 connections on this project's 2-core machine, where 1 connection saw
/// none, and about 1,200 a photo for `swiftvision rectangles` on MIDV-500's 540×960 frames. With both
/// thresholds fixed those requests fault nothing, and the server spent 0.4–1.5 ms less CPU an answer
/// (docs/deploy.md). Each arena then keeps up to ``trimThreshold`` of free memory.
package enum AllocatorSettings {
    /// Buffers up to this size come from the arenas and are reused once freed: glibc's ceiling for its
    /// own dynamic threshold, above a decoded 1080p frame (8.3 MB in RGBA) or 8-megapixel photo (24 MB in RGB).
    static let mmapThreshold: Int32 = 32 << 20
    /// The free memory an arena keeps at its top rather than give back: two such buffers.
    static let trimThreshold: Int32 = 64 << 20

    /// Fixes both thresholds, unless `environment` sets glibc's allocator itself (`MALLOC_…_` or
    /// `GLIBC_TUNABLES`), which then wins.
    package static func keepImageBuffers(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard !environment.keys.contains(where: { $0.hasPrefix("MALLOC_") || $0 == "GLIBC_TUNABLES" }) else { return }
        #if canImport(Glibc)
        // `mallopt` and its parameters are in <malloc.h>, which Swift's Glibc module leaves out: found by name,
        // with the parameters' values from that header (stable in glibc's ABI).
        typealias SetOption = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: SetOption.self)
        let (trimThresholdOption, mmapThresholdOption): (Int32, Int32) = (-1, -3)
        _ = mallopt(mmapThresholdOption, mmapThreshold)
        _ = mallopt(trimThresholdOption, trimThreshold)
        #endif
    }
}
