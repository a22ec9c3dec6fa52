/// One class a classifier gives an image, a region or an object: the one label container behind ML
/// Kit's `ImageLabel` and `ObjectLabel`, MediaPipe's `Category` and Vision's `ClassificationObservation`.
public struct ClassLabel: Sendable, Hashable, Codable {
    /// The class name from the model's label file; empty when the model has none.
    public var text: String
    /// The model's score for the class, 0–1 for probabilities.
    public var confidence: Float
    /// The class's position in its label set (the model's output, or ``ObjectCategory``).
    public var index: Int

    /// A label of class `index` named `text`.
    public init(text: String, confidence: Float, index: Int) {
        self.text = text
        self.confidence = confidence
        self.index = index
    }

    enum CodingKeys: String, CodingKey { case text, confidence, index }

    /// Decodes a label from its JSON object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        text = try container.decode(String.self, forKey: .text)
        confidence = try container.decode(Float.self, forKey: .confidence)
        index = try container.decode(Int.self, forKey: .index)
    }

    /// Encodes the label, its confidence rounded to four decimals.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(confidence.rounded(toPlaces: 4), forKey: .confidence)
        try container.encode(index, forKey: .index)
    }
}
