import CLiteRt
import Foundation
import SwiftVisionCore

extension LiteRT {
    /// How a model is compiled for the CPU (XNNPACK).
    public struct CompilationOptions: Sendable, Hashable {
        /// Threads XNNPACK may use for one inference.
        public var threadCount: Int

        /// Up to 4 threads, never more than the processors available.
        public static let `default` = CompilationOptions(
            threadCount: min(4, ProcessInfo.processInfo.activeProcessorCount))

        /// Options for `threadCount` threads, at least 1.
        public init(threadCount: Int) {
            self.threadCount = max(1, threadCount)
        }

        /// Builds the C options: CPU acceleration plus an `xnnpack` opaque option with a TOML payload.
        func makeHandle(_ library: LiteRTLibrary) throws -> LiteRtOptions {
            var options: LiteRtOptions?
            try library.check(library.createOptions(&options), "create compilation options")
            do {
                try library.check(
                    library.setOptionsHardwareAccelerators(options, Int32(kLiteRtHwAcceleratorCpu)), "select the CPU")
                let payload = strdup("num_threads = \(threadCount)\n")
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
