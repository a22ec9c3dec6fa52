/// The options of a ``TextRecognizer`` for Latin script, as ML Kit's `TextRecognizerOptions`: a class,
/// English (`["eng"]`) by default.
public final class TextRecognizerOptions: CommonTextRecognizerOptions, @unchecked Sendable {
    /// Options with the defaults, as ML Kit's `init()`.
    public init() {
        super.init(languages: ["eng"])
    }
}
