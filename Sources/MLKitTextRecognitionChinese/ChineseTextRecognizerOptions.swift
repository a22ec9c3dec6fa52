@_exported import MLKitTextRecognition

/// The options of a `TextRecognizer` for Chinese (simplified Han) script, as ML Kit's
/// `ChineseTextRecognizerOptions`: a class that reads Tesseract's `chi_sim` and `eng` data (ML Kit's
/// script recognisers read Latin text too). Both need installed `.traineddata`; without them each
/// recognition fails in `mlKitErrorDomain`.
public final class ChineseTextRecognizerOptions: CommonTextRecognizerOptions, @unchecked Sendable {
    /// Options with the defaults, as ML Kit's `init()`.
    public init() {
        super.init(languages: ["chi_sim", "eng"])
    }
}
