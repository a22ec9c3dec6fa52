import SwiftVisionTasks

/// What a ``BarcodeScanner`` looks for, as ML Kit's `BarcodeScannerOptions`: a class whose formats are
/// set when it is made.
public final class BarcodeScannerOptions: Sendable {
    /// The formats to read; fewer formats read faster.
    public let formats: BarcodeFormat

    /// Options that read every format, as ML Kit's `init()`.
    public convenience init() {
        self.init(formats: .all)
    }

    /// Options that read `formats`; a set without any of them is refused by each call of the scanner, as an error in
    /// ``mlKitErrorDomain``.
    public init(formats: BarcodeFormat) {
        self.formats = formats
    }

    /// The task's options, which read the formats with every extra effort; throws for a set without a format.
    func taskOptions() throws -> BarcodesTask.Options {
        let read = formats.readerFormats
        guard !read.isEmpty else { throw VisionTaskError.invalidOption("no barcode format to read in \(formats.rawValue)") }
        return BarcodesTask.Options(BarcodeEngineOptions(formats: read))
    }
}
