import Foundation

/// Why an analysis task could not run.
public enum VisionTaskError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// An option is outside its range.
    case invalidOption(String)
    /// A recognition language has no installed data.
    case unsupportedLanguage(String, installed: [String], directory: String)
    /// The underlying engine (zxing-cpp, Tesseract) reported a failure.
    case engineFailed(String)

    public var description: String {
        switch self {
        case .invalidOption(let reason): "invalid option: \(reason)"
        case .unsupportedLanguage(let language, let installed, let directory):
            "no Tesseract data for language \(language) in \(directory) (installed: "
                + (installed.isEmpty ? "none" : installed.joined(separator: ", "))
                + "); install tesseract-ocr-\(language) or set TESSDATA_PREFIX"
        case .engineFailed(let reason): reason
        }
    }

    public var errorDescription: String? { description }
}
