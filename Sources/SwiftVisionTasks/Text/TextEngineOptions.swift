import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// How thoroughly text is recognised, as Vision's `VNRequestTextRecognitionLevel`.
public enum TextRecognitionLevel: String, Sendable, CaseIterable, Codable {
    /// One pass of Tesseract over the gray image.
    case fast
    /// Uneven light flattened, the image rescaled so that the text has the height Tesseract reads best,
    /// pages read with few or unsure words turned upright when Tesseract's orientation data is installed, and
    /// images with few or unsure words (photos of signs and labels) read again: line by line where the text line
    /// detector (PaddleOCR's PP-OCRv4, `ppocr_v4_text_detection.tflite`) is installed and finds lines, else once
    /// more for scattered words.
    case accurate
}

/// What a ``TextRecognizer`` reads and how.
public struct TextEngineOptions: Sendable, Hashable {
    /// Languages to read, as Tesseract names them (`eng`, `deu`, `chi_sim`) or as BCP 47 tags
    /// (`en-US`, `de`); each needs its installed `.traineddata`. The first is the main one.
    public var languages: [String]
    /// How thoroughly text is recognised.
    public var recognitionLevel: TextRecognitionLevel
    /// Lines lower than this fraction of the image's height are left out (Vision's `minimumTextHeight`); 0 keeps all.
    public var minimumTextHeight: Float
    /// Whether Tesseract may use its word lists to choose between readings; off for codes, serial
    /// numbers and names.
    public var usesLanguageCorrection: Bool
    /// The folder holding the `.traineddata` files; nil looks in `$TESSDATA_PREFIX` and the usual
    /// system folders.
    public var dataDirectory: URL?

    /// Options for `languages`, English by default, read accurately with language correction.
    public init(
        languages: [String] = ["eng"], recognitionLevel: TextRecognitionLevel = .accurate, minimumTextHeight: Float = 0,
        usesLanguageCorrection: Bool = true, dataDirectory: URL? = nil
    ) {
        self.languages = languages
        self.recognitionLevel = recognitionLevel
        self.minimumTextHeight = minimumTextHeight
        self.usesLanguageCorrection = usesLanguageCorrection
        self.dataDirectory = dataDirectory
    }
}
