import CLiteRt
import Foundation
import SwiftVisionCore

extension LiteRT {
    /// How a model is compiled for the CPU (XNNPACK).
    public struct CompilationOptions: Sendable, Hashable {
        /// Threads XNNPACK may use for one inference.
        public var threadCount: Int
        /// Where XNNPACK's packed weights are kept between compilations; nil packs them anew each time.
        package var packedWeightCache: PackedWeightCache? = .current

        /// Up to 4 threads, never more than the processors available.
        public static let `default` = CompilationOptions(
            threadCount: min(4, ProcessInfo.processInfo.activeProcessorCount))

        /// Options for `threadCount` threads, at least 1.
        public init(threadCount: Int) {
            self.threadCount = max(1, threadCount)
        }

        /// Builds the C options: CPU acceleration plus an `xnnpack` opaque option with a TOML payload, which
        /// hands XNNPACK the packed-weight memory file `weightCacheDescriptor` when there is one (XNNPACK
        /// closes it once the options are used).
        func makeHandle(_ library: LiteRTLibrary, weightCacheDescriptor: Int32?) throws -> LiteRtOptions {
            var options: LiteRtOptions?
            try library.check(library.createOptions(&options), "create compilation options")
            do {
                try library.check(
                    library.setOptionsHardwareAccelerators(options, Int32(kLiteRtHwAcceleratorCpu)), "select the CPU")
                var toml = "num_threads = \(threadCount)\n"
                if let weightCacheDescriptor { toml += "weight_cache_file_descriptor = \(weightCacheDescriptor)\n" }
                let payload = strdup(toml)
                var opaque: LiteRtOpaqueOptions?
                let status = library.createOpaqueOptions("xnnpack", payload, { free($0) }, &opaque)
                if status != 0 { free(payload) }
                try library.check(status, "create the XNNPACK options")
                let added = library.addOpaqueOptions(options, opaque)
                if added != 0 { library.destroyOpaqueOptions(opaque) }
                try library.check(added, "attach the XNNPACK options")
            } catch {
                library.destroyOptions(options)
                throw error
            }
            return options!
        }
    }
}
