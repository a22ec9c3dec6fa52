import Foundation
import SwiftVisionCore

/// The folder where set-up keeps the runtime, models, sample photos and downloads:
/// `$SWIFTVISION_CACHE`, else `~/.cache/swiftvision`.
public struct SwiftVisionCache: Sendable, Equatable {
    /// The cache folder.
    public let root: URL

    /// The cache in the folder `root`.
    public init(root: URL) {
        self.root = root
    }

    /// The cache chosen by the environment.
    public static var current: SwiftVisionCache {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SWIFTVISION_CACHE"], !path.isEmpty {
            return SwiftVisionCache(root: URL(fileURLWithPath: path, isDirectory: true))
        }
        let home = FileManager.default.homeDirectoryForCurrentUser
        return SwiftVisionCache(root: home.appendingPathComponent(".cache/swiftvision", isDirectory: true))
    }

    /// Downloaded wheels and packages.
    public var downloads: URL { root.appendingPathComponent("downloads", isDirectory: true) }
    /// `.tflite` models.
    public var models: URL { root.appendingPathComponent("models", isDirectory: true) }
    /// Sample photos.
    public var samples: URL { root.appendingPathComponent("media", isDirectory: true) }
    /// XNNPACK's packed weights of the models compiled so far, one file per model (written on first use).
    public var packedWeights: URL { root.appendingPathComponent("packed-weights", isDirectory: true) }

    /// `libLiteRt.so`; `$SWIFTVISION_LITERT_LIBRARY` overrides it.
    public var runtimeLibrary: URL {
        if let path = ProcessInfo.processInfo.environment["SWIFTVISION_LITERT_LIBRARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return root.appendingPathComponent("lib/libLiteRt.so")
    }

    /// zxing-cpp 3's reader, which scripts/build-zxing.sh builds; `$SWIFTVISION_ZXING_LIBRARY` overrides it.
    public var barcodeLibrary: URL {
        if let path = ProcessInfo.processInfo.environment["SWIFTVISION_ZXING_LIBRARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return root.appendingPathComponent("lib/libZXing-swiftvision.so")
    }

    /// The installed model file `name` (for example `face_detection_short_range.tflite`).
    public func model(named name: String) -> URL { models.appendingPathComponent(name) }

    /// The installed sample photo `name` (for example `bus.jpg`).
    public func sample(named name: String) -> URL { samples.appendingPathComponent(name) }
}
