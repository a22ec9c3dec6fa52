import SwiftVisionTasks

/// The options of a ``TextRecognizer``, as ML Kit's `TextRecognizerOptions` (its Latin script recogniser):
/// a class, English by default.
public final class TextRecognizerOptions: @unchecked Sendable {
    /// Not on iOS, where each script has its options class: the languages to read, as Tesseract names
    /// them (`eng`, `deu`) or as BCP 47 tags (`en-US`, `de`), each needing its installed `.traineddata`;
    /// `["eng"]` by default.
    public var languages = ["eng"]

    /// Options with the defaults, as ML Kit's `init()`.
    public init() {}

    /// The task's options: the languages, read accurately with language correction.
    var taskOptions: TextTask.Options {
        TextTask.Options(TextEngineOptions(languages: languages))
    }
}
