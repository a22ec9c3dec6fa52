import SwiftVisionTasks

/// What the options of every script's recogniser share, as ML Kit's `CommonTextRecognizerOptions`:
/// ``TextRecognizer/textRecognizer(options:callbackQueue:)`` takes any of them. ``TextRecognizerOptions``
/// reads Latin script; the modules `MLKitTextRecognitionChinese`, `…Devanagari`, `…Japanese` and `…Korean`
/// hold the other scripts' options, as on iOS.
open class CommonTextRecognizerOptions: @unchecked Sendable {
    /// Not on iOS, where each script has its options class: the languages to read, as Tesseract names
    /// them (`eng`, `deu`) or as BCP 47 tags (`en-US`, `de`), each needing its installed `.traineddata`.
    /// Each options class sets its script's languages.
    public var languages: [String]

    /// Options that read `languages`; the script's options classes call it.
    package init(languages: [String]) {
        self.languages = languages
    }

    /// The task's options: the languages, read accurately with language correction.
    var taskOptions: TextTask.Options {
        TextTask.Options(TextEngineOptions(languages: languages))
    }
}
