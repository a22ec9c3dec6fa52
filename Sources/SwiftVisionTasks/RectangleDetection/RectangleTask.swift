import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Finds rectangles (pages, cards, screens) in perspective, without a model; see ``RectangleDetector``.
public struct RectangleTask: VisionTask {
    /// The settings of the rectangles task, named as the `rectangles` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// At most this many rectangles, most prominent first; 0 for no limit.
        public var max = 1
        /// Smallest ratio of shorter to longer side, 0–1.
        public var minAspect: Float = 0.5
        /// Largest ratio of shorter to longer side, 0–1.
        public var maxAspect: Float = 1
        /// Shortest side as a fraction of the image's shorter side, 0–1.
        public var minSize: Float = 0.2
        /// How far, in degrees, each corner may be from a right angle.
        public var quadratureTolerance: Float = 30
        /// Lowest confidence to report, 0–1.
        public var minConfidence: Float = 0

        /// The default settings (Vision's).
        public init() {}

        var detectorOptions: RectangleDetectorOptions {
            RectangleDetectorOptions(
                minimumAspectRatio: minAspect, maximumAspectRatio: maxAspect, quadratureTolerance: quadratureTolerance,
                minimumSize: minSize, minimumConfidence: minConfidence, maximumObservations: max)
        }
    }

    /// The rectangles of one image.
    public struct Output: Codable, Sendable, Equatable {
        /// The rectangles, most prominent first.
        public var rectangles: [DetectedRectangle]

        /// The rectangles `rectangles`.
        public init(rectangles: [DetectedRectangle]) {
            self.rectangles = rectangles
        }
    }

    /// Named `rectangles`; needs no model.
    public static let descriptor = TaskDescriptor(name: "rectangles", summary: "Rectangles in perspective: pages, cards, screens")
    /// The default settings (Vision's).
    public static var defaultOptions: Options { Options() }

    /// The settings the task was made with.
    public let options: Options
    private let detector: RectangleDetector

    /// Checks the options; there is no model to load.
    public init(options: Options, store: ModelStore) throws {
        try options.detectorOptions.validate()
        self.options = options
        detector = RectangleDetector(options: options.detectorOptions)
    }

    /// The rectangles in one image, the most prominent first.
    public func output(for image: VisionImage) throws -> Output {
        Output(rectangles: try detector.results(in: image))
    }
}

/// Reads barcodes of every format zxing-cpp knows, several per image; see ``BarcodeScanner``.
public struct BarcodeTask: VisionTask {
    /// The settings of the barcodes task, named as the `barcodes` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// Formats to read, comma-separated: names such as QRCode, EAN13, Code128, or linear, matrix, all.
        public var formats = "all"
        /// One plain pass: no extra effort for rotated, inverted, small or damaged codes.
        public var fast = false

        /// The default settings.
        public init() {}

        /// The scanner's options; throws for an unknown format name.
        func scannerOptions() throws -> BarcodeScannerOptions {
            var options = fast ? BarcodeScannerOptions.fast : BarcodeScannerOptions()
            options.formats = try BarcodeFormat(list: formats)
            return options
        }
    }

    /// The codes of one image.
    public struct Output: Codable, Sendable, Equatable {
        /// The codes read.
        public var barcodes: [Barcode]

        /// The codes `barcodes`.
        public init(barcodes: [Barcode]) {
            self.barcodes = barcodes
        }
    }

    /// Named `barcodes`; needs no model.
    public static let descriptor = TaskDescriptor(name: "barcodes", summary: "Barcodes of every format zxing-cpp reads")
    /// The default settings.
    public static var defaultOptions: Options { Options() }

    /// The settings the task was made with.
    public let options: Options
    private let scanner: BarcodeScanner

    /// Checks the format names; there is no model to load.
    public init(options: Options, store: ModelStore) throws {
        self.options = options
        scanner = BarcodeScanner(options: try options.scannerOptions())
    }

    /// The codes in one image.
    public func output(for image: VisionImage) throws -> Output {
        Output(barcodes: try scanner.results(in: image))
    }
}

/// Recognises printed text with Tesseract 5: blocks, lines and words; see ``TextRecognizer``.
public struct TextTask: VisionTask {
    /// The settings of the text task, named as the `text` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// Languages, joined with + or commas: Tesseract names (eng, deu) or BCP 47 tags (en-US).
        public var lang = "eng"
        /// `fast`: one plain pass; `accurate`: orientation, even light and rescaling first.
        public var level = TextRecognitionLevel.accurate

        /// The default settings.
        public init() {}

        var recognizerOptions: TextRecognizerOptions {
            TextRecognizerOptions(
                languages: lang.split(whereSeparator: { $0 == "+" || $0 == "," }).map(String.init), recognitionLevel: level)
        }
    }

    /// The text of one image, as ML Kit's `Text`.
    public typealias Output = Text

    /// Named `text`; reads with the installed Tesseract data.
    public static let descriptor = TaskDescriptor(name: "text", summary: "Printed text: blocks, lines and words (Tesseract)")
    /// The default settings.
    public static var defaultOptions: Options { Options() }

    /// The settings the task was made with.
    public let options: Options
    private let recognizer: TextRecognizer

    /// Starts Tesseract once per process for each set of options, through the model store.
    public init(options: Options, store: ModelStore) throws {
        self.options = options
        recognizer = try TextRecognizer.shared(options.recognizerOptions, store: store)
    }

    /// The text in one image, in reading order.
    public func output(for image: VisionImage) throws -> Text {
        try recognizer.results(in: image)
    }
}
