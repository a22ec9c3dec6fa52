import CTesseract
import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// The functions of Tesseract 5's C API, bound with `dlopen` and `dlsym` when text is first recognised, so
/// that a process that reads no text never loads Tesseract, Leptonica and their image libraries.
/// Immutable after loading, so it is safe to share.
final class TesseractLibrary: Sendable {
    /// The file name the dynamic loader looks up: the library of the `libtesseract5` package.
    static let defaultName = "libtesseract.so.5"

    let deleteText: TessDeleteTextFunction
    let create: TessBaseAPICreateFunction
    let delete: TessBaseAPIDeleteFunction
    let initialize: TessBaseAPIInit4Function
    let setVariable: TessBaseAPISetVariableFunction
    let setPageSegMode: TessBaseAPISetPageSegModeFunction
    let setImage: TessBaseAPISetImageFunction
    let setSourceResolution: TessBaseAPISetSourceResolutionFunction
    let recognize: TessBaseAPIRecognizeFunction
    let createMonitor: TessMonitorCreateFunction
    let deleteMonitor: TessMonitorDeleteFunction
    let setCancelFunction: TessMonitorSetCancelFuncFunction
    let setCancelThis: TessMonitorSetCancelThisFunction
    let iterator: TessBaseAPIGetIteratorFunction
    let detectOrientationScript: TessBaseAPIDetectOrientationScriptFunction
    let clear: TessBaseAPIClearFunction
    let end: TessBaseAPIEndFunction
    let isAtBeginningOf: TessPageIteratorIsAtBeginningOfFunction
    let boundingBox: TessPageIteratorBoundingBoxFunction
    let deleteIterator: TessResultIteratorDeleteFunction
    let pageIterator: TessResultIteratorGetPageIteratorFunction
    let next: TessResultIteratorNextFunction
    let utf8Text: TessResultIteratorGetUTF8TextFunction
    let confidence: TessResultIteratorConfidenceFunction
    let wordRecognitionLanguage: TessResultIteratorWordRecognitionLanguageFunction
    /// Leptonica's (Tesseract's image library's) `setMsgSeverity`.
    private let setMessageSeverity: LeptonicaSetMsgSeverityFunction
    /// The severity Leptonica had when loaded, with `$LEPT_MSG_SEVERITY` applied: its messages when shown.
    private let shownSeverity: Int32
    /// libSwiftVisionTesseract.so's switch for the calling thread's instances, when it is loaded.
    private let skipUniversalAmbiguities: SVTSkipUniversalAmbiguitiesFunction?

    /// The file name of the package's SwiftVisionTesseract product (CTesseractSupport.h).
    static let supportFileName = "libSwiftVisionTesseract.so"
    /// Tesseract's `UnicharAmbigs::LoadUniversal`, which the support library stands in for.
    static let loadUniversal = "_ZN9tesseract13UnicharAmbigs13LoadUniversalERKNS_10UNICHARSETEPS1_"

    /// The library of this process, loaded on first use.
    static func shared() throws -> TesseractLibrary {
        try loaded.get()
    }

    private static let loaded = Result { try TesseractLibrary(name: defaultName) }

    /// Loads the library `name` (a file name the dynamic loader searches for, or a path) and binds its functions;
    /// throws ``VisionTaskError/tesseractNotInstalled(library:reason:)`` when it is missing or lacks a function.
    init(name: String) throws {
        // Tesseract and the libraries it brings (Leptonica, libarchive, libcurl...) had some 22000 symbol
        // bindings made at once against the CLI's 40 libraries first; lazily and in their own scope first, the
        // dynamic loader takes about 16 ms instead of 23 ms of `swiftvision text` (perf, page.png).
        //
        // With libSwiftVisionTesseract.so in the global scope first, Tesseract is opened without deep binding
        // (giving back part of those 7 ms) so that its call to LoadUniversal finds the support library's: LSTM-only
        // instances then start some 60 ms sooner. Without the support library, text is read as before.
        let support = Self.openSupport()
        let library = try DynamicLibrary(path: name, binding: support == nil ? .lazyOwnFirst : .lazy) {
            VisionTaskError.tesseractNotInstalled(library: name, reason: $0)
        }
        if let support, let setLoadUniversal: SVTSetLoadUniversalFunction = try? support.function("svt_set_load_universal"),
            let loadUniversal: UnsafeMutableRawPointer = try? library.function(Self.loadUniversal)
        {
            setLoadUniversal(loadUniversal)
            skipUniversalAmbiguities = try? support.function("svt_skip_universal_ambiguities")
        } else {
            skipUniversalAmbiguities = nil
        }
        deleteText = try library.function("TessDeleteText")
        create = try library.function("TessBaseAPICreate")
        delete = try library.function("TessBaseAPIDelete")
        initialize = try library.function("TessBaseAPIInit4")
        setVariable = try library.function("TessBaseAPISetVariable")
        setPageSegMode = try library.function("TessBaseAPISetPageSegMode")
        setImage = try library.function("TessBaseAPISetImage")
        setSourceResolution = try library.function("TessBaseAPISetSourceResolution")
        recognize = try library.function("TessBaseAPIRecognize")
        createMonitor = try library.function("TessMonitorCreate")
        deleteMonitor = try library.function("TessMonitorDelete")
        setCancelFunction = try library.function("TessMonitorSetCancelFunc")
        setCancelThis = try library.function("TessMonitorSetCancelThis")
        iterator = try library.function("TessBaseAPIGetIterator")
        detectOrientationScript = try library.function("TessBaseAPIDetectOrientationScript")
        clear = try library.function("TessBaseAPIClear")
        end = try library.function("TessBaseAPIEnd")
        isAtBeginningOf = try library.function("TessPageIteratorIsAtBeginningOf")
        boundingBox = try library.function("TessPageIteratorBoundingBox")
        deleteIterator = try library.function("TessResultIteratorDelete")
        pageIterator = try library.function("TessResultIteratorGetPageIterator")
        next = try library.function("TessResultIteratorNext")
        utf8Text = try library.function("TessResultIteratorGetUTF8Text")
        confidence = try library.function("TessResultIteratorConfidence")
        wordRecognitionLanguage = try library.function("TessResultIteratorWordRecognitionLanguage")
        // Leptonica comes with Tesseract (a dependency it loads), so its symbols resolve through this handle.
        setMessageSeverity = try library.function("setMsgSeverity")
        let loaded = setMessageSeverity(Int32(LEPTONICA_SEVERITY_EXTERNAL))
        shownSeverity = setMessageSeverity(loaded)
    }

    /// libSwiftVisionTesseract.so opened into the global scope, from `$SWIFTVISION_TESSERACT_SUPPORT_LIBRARY`, next
    /// to the executable or on the loader's path; nil when none of them opens.
    private static func openSupport() -> DynamicLibrary? {
        struct Unavailable: Error {}
        let candidates = DynamicLibrary.candidates(fileName: supportFileName, variable: "SWIFTVISION_TESSERACT_SUPPORT_LIBRARY")
        return candidates.lazy.compactMap { try? DynamicLibrary(path: $0, binding: .immediateGlobal) { _ in Unavailable() } }.first
    }

    /// Runs `start` (which starts an instance) with the universal ambiguity table skipped when `lstmOnly`: the
    /// LSTM engine never reads it, and the words read are the same (`TextRecognitionTests.theAmbiguityTableChangesNoWord`).
    func starting<Result>(lstmOnly: Bool, _ start: () -> Result) -> Result {
        guard lstmOnly, let skipUniversalAmbiguities else { return start() }
        skipUniversalAmbiguities(1)
        defer { skipUniversalAmbiguities(0) }
        return start()
    }

    /// Lets Leptonica's messages reach standard error only when the codecs' are shown (`--verbose`): it
    /// prints errors such as "Error in boxClipToRectangle: box outside rectangle" on images with no text
    /// (a 20000×20 strip of noise) that Tesseract handles by finding nothing.
    func applyMessageChoice() {
        _ = setMessageSeverity(CodecMessages.areShown ? shownSeverity : Int32(LEPTONICA_SEVERITY_NONE))
    }
}
