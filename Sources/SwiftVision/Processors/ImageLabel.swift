/// One class a classifier gives an image or a region of it, as ML Kit's `ImageLabel` (MediaPipe's `Category`).
public struct ImageLabel: Sendable, Hashable, Codable {
    /// The class name from the model's label file; empty when the model has none.
    public var text: String
    /// The model's score for the class, 0–1 for probabilities.
    public var confidence: Float
    /// The class's position in the model's output.
    public var index: Int

    public init(text: String, confidence: Float, index: Int) {
        self.text = text
        self.confidence = confidence
        self.index = index
    }
}
