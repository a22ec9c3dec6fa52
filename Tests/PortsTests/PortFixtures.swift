import Dispatch
import Foundation
import SwiftVisionCore
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

    /// `count` frames of a camera panning over the sample `name`: frame `i` is the window of the photo
    /// `shrink` pixels smaller on each axis whose top-left corner is at (4i, 2i), so that what the photo
    /// shows moves 4 pixels left and 2 up a frame.
    static func pannedFrames(of name: String, count: Int, shrink: Int = 40) throws -> [VisionImage] {
        let photo = try VisionImage(contentsOf: sample(name))
        return try (0..<count).map { index in
            try photo.cropped(
                to: CGRect(x: 4 * index, y: 2 * index, width: photo.width - shrink, height: photo.height - shrink))
        }
    }

    /// The sample `name` with its pixels turned a quarter turn clockwise and no orientation tag, as JPEG: a
    /// sideways camera picture, upright when shown in EXIF orientation 8 (`.left`).
    static func sidewaysJPEG(of name: String) throws -> Data {
        try VisionImage(contentsOf: sample(name)).rotated(by: .clockwise90).upright().encoded(as: .jpeg(quality: 90))
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
