import CLiteRt
import SwiftVisionCore

extension LiteRT {
    /// The LiteRT environment that models are loaded and compiled in. Safe to share; one per process is enough.
    public final class Environment: @unchecked Sendable {
        let library: LiteRTLibrary
        let handle: LiteRtEnvironment

        /// Creates an environment, loading the runtime on first use.
        public init() throws {
            let library = try LiteRTLibrary.shared()
            var handle: LiteRtEnvironment?
            try library.check(LiteRT.filteringLog { library.createEnvironment(0, nil, &handle) }, "create an environment")
            self.library = library
            self.handle = handle!
        }

        /// The environment shared by SwiftVision's tasks: the one of ``ModelStore/shared``.
        public static func shared() throws -> Environment {
            try ModelStore.shared.environment()
        }

        deinit {
            library.destroyEnvironment(handle)
        }
    }
}
