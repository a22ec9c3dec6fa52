import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Finds rectangles — pages, cards, screens, signs — in perspective, in the style of the other
/// detectors (Vision's `VNDetectRectanglesRequest` does the same; see ``DetectRectanglesRequest``),
/// without a learned model. Safe to share between threads.
public struct RectangleDetector: Sendable {
    /// What counts as a rectangle.
    public let options: RectangleEngineOptions
    private let runner: Result<TaskRunner<RectanglesTask>, any Error>

    /// A detector with `options`; options out of range are reported by ``results(in:)``.
    public init(options: RectangleEngineOptions = .init()) {
        self.options = options
        runner = Result { TaskRunner(task: try RectanglesTask(options: RectanglesTask.Options(options))) }
    }

    /// The rectangles in `image`, the most prominent first (by confidence² × √(share of the image's area)).
    public func results(in image: VisionImage) throws -> [DetectedRectangle] {
        try runner.get().run(image).rectangles
    }

    /// The rectangles in `image`, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> [DetectedRectangle] {
        try await runner.get().process(image).rectangles
    }
}
