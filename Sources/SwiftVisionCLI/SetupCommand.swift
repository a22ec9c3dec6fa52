import ArgumentParser
import Foundation
import SwiftVision

struct SetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Install the LiteRT runtime and the models into the cache folder.",
        discussion: """
            Downloads the pinned wheels (ai-edge-litert 2.3.0, mediapipe 0.10.21) with pip, extracts \
            libLiteRt.so and the .tflite models, and checks their SHA-256. The cache is $SWIFTVISION_CACHE, \
            else ~/.cache/swiftvision. A second run finds everything in place and needs no network.
            """)

    @Flag(help: "Also install the sample photos (from the ultralytics and scikit-image wheels and Debian's darknet).")
    var samples = false

    func run() throws {
        let cache = SwiftVisionCache.current
        let installer = AssetInstaller(cache: cache) { Diagnostics.note($0) }
        var groups: Set<Asset.Group> = [.runtime, .models]
        if samples { groups.insert(.samples) }
        let files = try installer.install(groups)
        print("\(files.count) files in place under \(cache.root.path)")
    }
}
