import ArgumentParser
import Foundation
import SwiftVision

/// A task whose landmark command (`pose`, `hands`) names what it finds in its options' help.
protocol LandmarkSubject {
    /// One thing the task finds, in the singular: "pose", "hand".
    static var subject: String { get }
}

/// The options the landmark commands (`pose`, `hands`) share, their help naming `Subject`'s finds.
struct LandmarkCommandOptions<Subject: LandmarkSubject>: ParsableArguments {
    @Option(help: ArgumentHelp("Lowest detector score that starts a new \(Subject.subject), 0–1."))
    var minDetectionConfidence: Float = 0.5

    @Option(help: ArgumentHelp("Lowest confidence of the landmark model that keeps a \(Subject.subject), 0–1."))
    var minPresenceConfidence: Float = 0.5

    @Option(help: "Write the image or video with the skeletons drawn here (a folder when there are several inputs).")
    var draw: String?
}
