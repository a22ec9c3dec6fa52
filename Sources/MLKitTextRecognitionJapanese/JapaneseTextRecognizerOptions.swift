@_exported import MLKitTextRecognition

/// The options of a `TextRecognizer` for Japanese script, as ML Kit's
/// `JapaneseTextRecognizerOptions`: a class that reads Tesseract's `jpn` and `eng` data (ML Kit's
/// script recognisers read Latin text too). Both need installed `.traineddata`; without them each
/// recognition fails in `mlKitErrorDomain`.
public final class JapaneseTextRecognizerOptions: CommonTextRecognizerOptions, @unchecked Sendable {
    /// Options with the defaults, as ML Kit's `init()`.
    public init() {
        super.init(languages: ["jpn", "eng"])
    }
}
