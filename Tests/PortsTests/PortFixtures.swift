import Dispatch
import Foundation
import SwiftVisionRuntime

/// The installed sample photos and models (`make test` runs `swiftvision setup --samples` first): the only
/// thing the ported code takes from SwiftVision itself, as URLs.
enum PortFixtures {
    /// The sample photo or image named `name`.
    static func sample(_ name: String) -> URL {
        SwiftVisionCache.current.sample(named: name)
    }

    /// The installed model named `name`.
    static func model(_ name: String) -> URL {
        SwiftVisionCache.current.model(named: name)
    }

    /// A queue for completions in tests, which have no main loop, and a key that says a block runs on it.
    static let callbacks: DispatchQueue = {
        let queue = DispatchQueue(label: "PortsTests.callbacks")
        queue.setSpecific(key: onCallbacks, value: true)
        return queue
    }()

    /// Set on ``callbacks``.
    static let onCallbacks = DispatchSpecificKey<Bool>()

    /// What `start`'s completion is called with, and whether it was called on ``callbacks``.
    static func completion<Results: Sendable>(
        _ start: (@escaping @Sendable (Results?, (any Error)?) -> Void) -> Void
    ) async -> (results: Results?, error: (any Error)?, onCallbacks: Bool) {
        await withCheckedContinuation { continuation in
            start { results, error in
                continuation.resume(returning: (results, error, DispatchQueue.getSpecific(key: onCallbacks) == true))
            }
        }
    }
}
