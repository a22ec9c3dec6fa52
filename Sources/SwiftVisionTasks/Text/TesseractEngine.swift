import CTesseract
import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// One Tesseract instance (`TessBaseAPI`) through its C API. Not thread-safe: ``TextEngine`` gives
/// each instance to one recognition at a time.
final class TesseractEngine {
    private let library: TesseractLibrary
    private let handle: OpaquePointer
    /// The language string Tesseract was started with, such as `eng+deu`.
    let languages: String

    /// Held while setting one of Tesseract's settings that are one for the whole process (`debug_file`), which
    /// instances loading on two threads at once (the reader and the orientation finder) would otherwise race on.
    private static let processSettings = NSLock()

    /// A word as Tesseract reports it, in the pixels of the image it was given.
    struct Word {
        var text: String
        var box: CGRect
        var confidence: Float
        var language: String
        var startsBlock: Bool
        var startsLine: Bool
    }

    /// Starts Tesseract with `languages` (joined with `+`) from `directory`, for recognition or,
    /// with `orientationOnly`, for orientation detection with the `osd` data. Loads Tesseract's library the
    /// first time (``VisionTaskError/tesseractNotInstalled(library:reason:)`` when it is missing).
    init(languages: [String], directory: URL, usesLanguageCorrection: Bool = true, orientationOnly: Bool = false) throws {
        let library = try TesseractLibrary.shared()
        guard let handle = library.create() else { throw VisionTaskError.engineFailed("Tesseract could not start") }
        self.library = library
        self.handle = handle
        self.languages = languages.joined(separator: "+")
        // Without word lists Tesseract reads what it sees instead of the likeliest dictionary word.
        let settings = usesLanguageCorrection ? [] : [("load_system_dawg", "0"), ("load_freq_dawg", "0")]
        let status = Self.withCStrings(settings.map(\.0)) { names in
            Self.withCStrings(settings.map(\.1)) { values in
                library.starting(lstmOnly: !orientationOnly) {
                    library.initialize(
                        handle, directory.path, self.languages, orientationOnly ? OEM_TESSERACT_ONLY : OEM_LSTM_ONLY, nil, 0,
                        names, values, settings.count, 0)
                }
            }
        }
        // On failure `deinit` ends and deletes the instance, once.
        guard status == 0 else {
            throw VisionTaskError.engineFailed("Tesseract could not load \(self.languages) from \(directory.path)")
        }
        // Tesseract's warnings (resolution estimates, empty pages) would otherwise reach standard error.
        _ = Self.processSettings.withLock { library.setVariable(handle, "debug_file", "/dev/null") }
        library.setPageSegMode(handle, orientationOnly ? PSM_OSD_ONLY : PSM_AUTO)
    }

    deinit {
        library.end(handle)
        library.delete(handle)
    }

    /// How Tesseract finds the text in an image (its page segmentation modes).
    enum Layout {
        /// Columns, paragraphs and lines, in reading order (`PSM_AUTO`).
        case page
        /// As much text as it can, in no particular order (`PSM_SPARSE_TEXT`).
        case sparse
        /// The whole image is one line of text (`PSM_SINGLE_LINE`).
        case singleLine

        var mode: TessPageSegMode {
            switch self {
            case .page: PSM_AUTO
            case .sparse: PSM_SPARSE_TEXT
            case .singleLine: PSM_SINGLE_LINE
            }
        }
    }

    /// The words in a gray buffer, in reading order, found as `layout` says.
    /// Recognition stops early, throwing ``VisionTaskError/cancelled``, when the current ``CancellationToken``
    /// is cancelled: inside Tesseract's recognition (its cancel callback, asked after each word) and between the
    /// words read from its result (``recognizedWords()``).
    func words(in gray: PixelBuffer, resolution: Int, layout: Layout = .page) throws -> [Word] {
        try CancellationToken.checkpoint()
        if layout != .page { library.setPageSegMode(handle, layout.mode) }
        defer {
            library.clear(handle)
            if layout != .page { library.setPageSegMode(handle, PSM_AUTO) }
        }
        guard try recognize(gray, resolution: resolution) else { return [] }
        return try recognizedWords()
    }

    /// The words of the image last recognised, in reading order. Stops, throwing ``VisionTaskError/cancelled``,
    /// between words once the current ``CancellationToken`` is cancelled: Tesseract's result iterator takes
    /// milliseconds a word when a noisy image holds hundreds.
    func recognizedWords() throws -> [Word] {
        guard let iterator = library.iterator(handle) else { return [] }
        defer { library.deleteIterator(iterator) }
        let page = library.pageIterator(iterator)
        var words: [Word] = []
        repeat {
            try CancellationToken.checkpoint()
            guard let raw = library.utf8Text(iterator, RIL_WORD) else { continue }
            let text = String(cString: raw).trimmingCharacters(in: .whitespacesAndNewlines)
            library.deleteText(raw)
            var (left, top, right, bottom): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
            guard !text.isEmpty, library.boundingBox(page, RIL_WORD, &left, &top, &right, &bottom) != 0 else {
                continue
            }
            let language = library.wordRecognitionLanguage(iterator).map { String(cString: $0) } ?? ""
            words.append(
                Word(
                    text: text,
                    box: CGRect(x: Int(left), y: Int(top), width: Int(right - left), height: Int(bottom - top)),
                    confidence: max(0, min(1, library.confidence(iterator, RIL_WORD) / 100)),
                    language: language, startsBlock: library.isAtBeginningOf(page, RIL_BLOCK) != 0,
                    startsLine: library.isAtBeginningOf(page, RIL_TEXTLINE) != 0))
        } while library.next(iterator, RIL_WORD) != 0
        return words
    }

    /// How far the text in a gray buffer is turned clockwise from upright (0, 90, 180 or 270) and
    /// Tesseract's confidence in it; nil when it cannot tell. Needs an engine started with `osd`.
    func orientation(of gray: PixelBuffer, resolution: Int) -> (degrees: Int, confidence: Float)? {
        setImage(gray, resolution: resolution)
        defer { library.clear(handle) }
        var degrees: Int32 = 0
        var confidence: Float = 0
        var scriptConfidence: Float = 0
        guard library.detectOrientationScript(handle, &degrees, &confidence, nil, &scriptConfidence) != 0 else {
            return nil
        }
        return (Int(degrees), confidence)
    }

    /// Gives Tesseract a gray buffer at `resolution` pixels per inch and runs its recognition, with a monitor
    /// that asks the current ``CancellationToken`` (if any) whether to stop; throws ``VisionTaskError/cancelled``
    /// when it did stop. True when the recognition succeeded: ``recognizedWords()`` then reads its result.
    func recognize(_ gray: PixelBuffer, resolution: Int) throws -> Bool {
        setImage(gray, resolution: resolution)
        guard let token = CancellationToken.current, let monitor = library.createMonitor() else {
            return library.recognize(handle, nil) == 0
        }
        defer { library.deleteMonitor(monitor) }
        let status = withExtendedLifetime(token) {
            library.setCancelThis(monitor, Unmanaged.passUnretained(token).toOpaque())
            library.setCancelFunction(monitor) { token, _ in
                guard let token else { return false }
                return Unmanaged<CancellationToken>.fromOpaque(token).takeUnretainedValue().isCancelled
            }
            return library.recognize(handle, monitor)
        }
        try CancellationToken.checkpoint()
        return status == 0
    }

    /// Gives Tesseract a gray buffer, at `resolution` pixels per inch (0 asks it to estimate one).
    private func setImage(_ gray: PixelBuffer, resolution: Int) {
        library.applyMessageChoice()
        gray.bytes.withUnsafeBufferPointer { pixels in
            library.setImage(handle, pixels.baseAddress, Int32(gray.width), Int32(gray.height), 1, Int32(gray.bytesPerRow))
        }
        library.setSourceResolution(handle, Int32(resolution))
    }

    /// Calls `body` with a C array of C strings, valid only during the call.
    private static func withCStrings<Result>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Result) -> Result {
        var pointers = strings.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress) }
    }
}
