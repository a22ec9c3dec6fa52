import Foundation

/// A linear code's content as zxing-cpp 1.4 gave it (and ML Kit gives it), where zxing-cpp 3 gives it
/// otherwise: UPC-A and UPC-E as 12 and 8 digits (3 gives both as the 13 digits of EAN-13, and
/// UPC-A as EAN-13), Codabar without its start and stop characters, GS1 DataBar as the bare GTIN-14
/// (3 puts the application identifier "(01)" before it).
struct ZXing14Content {
    var format: BarcodeFormat
    var text: String

    /// The older form of `text`, read by zxing-cpp 3 as `format` while looking for `formats`, with `upcE`
    /// the UPC-E symbol's own digits; nil when both forms are the same.
    init?(format: BarcodeFormat, text: String, upcE: String, formats: BarcodeFormat) {
        switch format {
        case .ean13 where formats.contains(.upcA) && text.count == 13 && text.hasPrefix("0"):
            (self.format, self.text) = (.upcA, String(text.dropFirst()))
        case .upcE where !upcE.isEmpty:
            (self.format, self.text) = (.upcE, upcE)
        case .codabar where text.count >= 2:
            (self.format, self.text) = (.codabar, String(text.dropFirst().dropLast()))
        case .dataBar where text.hasPrefix("(01)"):
            (self.format, self.text) = (.dataBar, String(text.dropFirst(4)))
        default:
            return nil
        }
    }
}
