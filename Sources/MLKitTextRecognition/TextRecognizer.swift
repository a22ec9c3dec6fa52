import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Recognises printed text with Tesseract 5, as ML Kit's `TextRecognizer`: blocks, lines and words
/// with their boxes and confidences, in reading order.
///
/// Safe to share between threads: recognitions run in parallel, each on a Tesseract instance of its
/// own, which the process's ``ModelStore`` keeps per set of options (up to its `parallelInferences`).
public final class TextRecognizer: Sendable {
    /// What the recogniser reads and how.
    public let options: TextRecognizerOptions
    private let runner: TaskRunner<TextTask>

    /// Starts Tesseract with the options' languages.
    public init(options: TextRecognizerOptions = .init()) throws {
        self.options = options
        runner = TaskRunner(task: try TextTask(options: TextTask.Options(options)))
    }

    /// A recogniser with `options`, as ML Kit's `TextRecognizer.textRecognizer(options:)`.
    public static func textRecognizer(options: TextRecognizerOptions = .init()) throws -> TextRecognizer {
        try TextRecognizer(options: options)
    }

    /// The Tesseract data names in use, such as `["eng"]`.
    public var languages: [String] { runner.task.languages }

    /// The languages with installed data, as Tesseract names them (without `osd`, which only finds orientation).
    public static func supportedLanguages(dataDirectory: URL? = nil) -> [String] {
        TextEngine.supportedLanguages(dataDirectory: dataDirectory)
    }

    /// The text in `image`, with boxes in its upright pixels.
    public func results(in image: VisionImage) throws -> Text {
        try runner.run(image)
    }

    /// The text in `image`, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> Text {
        try await runner.process(image)
    }

    /// The text in `image`, delivered to `completion` (ML Kit's callback style).
    public func process(_ image: VisionImage, completion: @escaping @Sendable (Text?, (any Error)?) -> Void) {
        complete(completion) { try await self.process(image) }
    }
}
