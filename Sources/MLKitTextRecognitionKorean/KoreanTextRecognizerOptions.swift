@_exported import MLKitTextRecognition

/// The options of a `TextRecognizer` for Korean (Hangul and Han) script, as ML Kit's
/// `KoreanTextRecognizerOptions`: a class that reads Tesseract's `kor` and `eng` data (ML Kit's
/// script recognisers read Latin text too). Both need installed `.traineddata`; without them each
/// recognition fails in `mlKitErrorDomain`.
public final class KoreanTextRecognizerOptions: CommonTextRecognizerOptions, @unchecked Sendable {
    /// Options with the defaults, as ML Kit's `init()`.
    public init() {
        super.init(languages: ["kor", "eng"])
    }
}
