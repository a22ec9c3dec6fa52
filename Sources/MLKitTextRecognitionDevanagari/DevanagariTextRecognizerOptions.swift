@_exported import MLKitTextRecognition

/// The options of a `TextRecognizer` for Devanagari (Hindi) script, as ML Kit's
/// `DevanagariTextRecognizerOptions`: a class that reads Tesseract's `hin` and `eng` data (ML Kit's
/// script recognisers read Latin text too). Both need installed `.traineddata`; without them each
/// recognition fails in `mlKitErrorDomain`.
public final class DevanagariTextRecognizerOptions: CommonTextRecognizerOptions, @unchecked Sendable {
    /// Options with the defaults, as ML Kit's `init()`.
    public init() {
        super.init(languages: ["hin", "eng"])
    }
}
