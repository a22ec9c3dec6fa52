import Foundation
import MLKitVision
import SwiftVisionTasks

/// Recognises printed text with Tesseract 5, as ML Kit's `TextRecognizer`: blocks, lines and words
/// with their boxes and confidences, in reading order.
///
/// Safe to share between threads: recognitions run in parallel, each on a Tesseract instance of its
/// own, which the process's `ModelStore` keeps per set of options (up to its `parallelInferences`).
/// Completions are called on the main queue, as on iOS, which a program must serve (`dispatchMain()`,
/// `RunLoop.main.run()`); ``textRecognizer(options:callbackQueue:)`` takes another queue.
public final class TextRecognizer: Sendable {
    private let detector: Detector<TextTask>

    private init(options: CommonTextRecognizerOptions, callbackQueue: DispatchQueue) {
        detector = Detector(stream: false, callbackQueue: callbackQueue) {
            try TextTask(options: options.taskOptions)
        }
    }

    /// A recogniser with `options`, as ML Kit's `TextRecognizer.textRecognizer(options:)`. It does not
    /// fail: languages without installed data are reported by each call, as an error in ``mlKitErrorDomain``.
    public static func textRecognizer(options: CommonTextRecognizerOptions, callbackQueue: DispatchQueue = .main) -> TextRecognizer {
        TextRecognizer(options: options, callbackQueue: callbackQueue)
    }

    /// The Tesseract data names in use, such as `["eng"]`; empty when Tesseract did not start.
    public var languages: [String] { (try? detector.task().languages) ?? [] }

    /// The languages with installed data, as Tesseract names them (without `osd`, which only finds orientation).
    public static func supportedLanguages(dataDirectory: URL? = nil) -> [String] {
        TextEngine.supportedLanguages(dataDirectory: dataDirectory)
    }

    /// The text in `image`, with boxes in its upright pixels.
    public func results(in image: VisionImage) throws -> Text {
        Text(try detector.output(for: image))
    }

    /// The text in `image`, handed to `completion` on the callback queue, as ML Kit's `process(_:completion:)`.
    public func process(_ image: VisionImage, completion: @escaping @Sendable (Text?, (any Error)?) -> Void) {
        detector.process(image, results: Text.init, completion: completion)
    }

    /// The text in `image`, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> Text {
        Text(try await detector.output(processing: image))
    }
}
