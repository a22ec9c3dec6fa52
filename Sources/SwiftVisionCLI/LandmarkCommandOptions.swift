import ArgumentParser
import Foundation
import SwiftVision

/// The options the landmark commands (`pose`, `hands`) share.
struct LandmarkCommandOptions: ParsableArguments {
    @Option(help: "Lowest detector score that starts a new pose or hand, 0–1.")
    var minDetectionConfidence: Float = 0.5

    @Option(help: "Lowest confidence of the landmark model that keeps a pose or hand, 0–1.")
    var minPresenceConfidence: Float = 0.5

    @Option(help: "Write the image or video with the skeletons drawn here (a folder when there are several inputs).")
    var draw: String?
}
