import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Recognises text line by line, as Vision's `RecognizeTextRequest`, with the engine of ``TextRecognizer``.
public struct RecognizeTextRequest: VisionRequest {
    /// How thoroughly text is recognised: `.accurate` (default, as Vision) or `.fast`.
    public var recognitionLevel = TextRecognitionLevel.accurate
    /// Lines lower than this fraction of the image's height are left out; 0 keeps all.
    public var minimumTextHeight: Float = 0
    /// Languages as BCP 47 tags (`en-US`) or Tesseract names (`eng`), the main one first.
    public var recognitionLanguages = ["en-US"]
    /// Whether Tesseract may use its word lists to choose between readings; off for codes, serial
    /// numbers and names.
    public var usesLanguageCorrection = true
    /// The part of the image read, normalised with the origin at the lower left.
    public var regionOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// Called with the request's results or error each time a handler performs it (Vision's
    /// `completionHandler`); nil for none.
    public var completionHandler: CompletionHandler?
    /// What the request produces.
    public typealias Result = [RecognizedTextObservation]

    /// A request for accurate recognition of US English over the whole image.
    public init() {}

    /// The languages with installed Tesseract data.
    public static func supportedRecognitionLanguages() -> [String] {
        TextEngine.supportedLanguages()
    }

    /// The lines read, in reading order.
    public func perform(on image: VisionImage) throws -> [RecognizedTextObservation] {
        guard (0...1).contains(minimumTextHeight) else {
            throw VisionTaskError.invalidOption("minimumTextHeight must lie in 0…1")
        }
        let task = try TextTask(
            options: TextTask.Options(
                TextEngineOptions(
                    languages: recognitionLanguages, recognitionLevel: recognitionLevel,
                    usesLanguageCorrection: usesLanguageCorrection)))
        let (part, origin) = try image.region(ofInterest: regionOfInterest)
        let text = try task.output(for: part)
        // The minimum height is a fraction of the whole image, not of the region of interest.
        let minimumHeight = Double(minimumTextHeight) * Double(image.height)
        return text.blocks.flatMap(\.lines).filter { Double($0.frame.height) >= minimumHeight }.map { line in
            var line = line
            for index in line.elements.indices {
                line.elements[index].frame = line.elements[index].frame.offsetBy(dx: origin.x, dy: origin.y)
            }
            return RecognizedTextObservation(line: line, imageSize: image.size)
        }
    }
}
