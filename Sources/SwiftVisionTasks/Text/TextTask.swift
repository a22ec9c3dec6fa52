import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Recognises printed text with Tesseract 5: blocks, lines and words in reading order.
public struct TextTask: VisionTask {
    /// The settings of the text task, named as the `text` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// Languages, joined with + or commas: Tesseract names (eng, deu) or BCP 47 tags (en-US).
        public var lang = "eng"
        /// `fast`: one plain pass; `accurate`: orientation, even light and rescaling first.
        public var level = TextRecognitionLevel.accurate
        /// Lines lower than this fraction of the image's height are left out; 0 keeps all.
        public var minTextHeight: Float = 0
        /// Let Tesseract use its word lists to choose between readings.
        public var correction = true
        /// The folder of the `.traineddata` files; nil for `$TESSDATA_PREFIX` and the system's.
        public var data: String?

        /// The default settings.
        public init() {}

        /// The task's options for the ML Kit-style `options`.
        package init(_ options: TextEngineOptions) {
            lang = options.languages.joined(separator: "+")
            level = options.recognitionLevel
            minTextHeight = options.minimumTextHeight
            correction = options.usesLanguageCorrection
            data = options.dataDirectory?.path
        }

        var recognizerOptions: TextEngineOptions {
            TextEngineOptions(
                languages: lang.split(whereSeparator: { $0 == "+" || $0 == "," }).map(String.init), recognitionLevel: level,
                minimumTextHeight: minTextHeight, usesLanguageCorrection: correction,
                dataDirectory: data.map { URL(fileURLWithPath: $0, isDirectory: true) })
        }
    }

    /// The text of one image, as ML Kit's `Text`.
    public typealias Output = RecognizedText

    /// Named `text`; reads with the installed Tesseract data, and finds and reads the lines of photos with the model
    /// zoo's text line detector, direction classifier and recogniser.
    public static let descriptor = TaskDescriptor(
        name: "text", title: "Text", summary: "Printed text: blocks, lines and words (Tesseract)",
        models: [
            TextLineDetector.defaultModelName, TextLineRecognizer.defaultModelName, TextDirectionClassifier.defaultModelName,
        ])
    /// The default settings.
    public static var defaultOptions: Options { Options() }

    /// The settings the task was made with.
    public let options: Options
    private let recognizer: TextEngine

    /// Starts Tesseract once per process for each set of options, through the model store.
    public init(options: Options, store: ModelStore) throws {
        self.options = options
        do {
            recognizer = try TextEngine.shared(options.recognizerOptions, store: store)
        } catch let error as VisionTaskError {
            throw error.renamingOption(["minimumTextHeight": "minTextHeight"])
        }
    }

    /// The text in one image, in reading order.
    public func output(for image: VisionImage) throws -> RecognizedText {
        try recognizer.results(in: image)
    }

    /// The Tesseract names of the languages in use, such as `["eng"]`.
    public var languages: [String] { recognizer.languages }
}
