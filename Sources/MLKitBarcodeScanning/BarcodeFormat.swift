import SwiftVisionTasks

/// Barcode formats, as a set: ML Kit's `BarcodeFormat`, with its raw values.
public struct BarcodeFormat: OptionSet, Hashable, Sendable {
    /// The set as ML Kit's bit flags.
    public let rawValue: Int

    /// The formats whose ML Kit flags are set in `rawValue`.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Every format: those below, and those zxing-cpp reads beyond ML Kit's (Micro QR Code, MaxiCode,
    /// GS1 DataBar), which a ``Barcode`` reports with the empty format, as ML Kit reports an unknown one.
    public static let all = BarcodeFormat(rawValue: 0xFFFF)
    /// Code 128.
    public static let code128 = BarcodeFormat(rawValue: 0x0001)
    /// Code 39.
    public static let code39 = BarcodeFormat(rawValue: 0x0002)
    /// Code 93.
    public static let code93 = BarcodeFormat(rawValue: 0x0004)
    /// Codabar.
    public static let codaBar = BarcodeFormat(rawValue: 0x0008)
    /// Data Matrix.
    public static let dataMatrix = BarcodeFormat(rawValue: 0x0010)
    /// EAN-13.
    public static let EAN13 = BarcodeFormat(rawValue: 0x0020)
    /// EAN-8.
    public static let EAN8 = BarcodeFormat(rawValue: 0x0040)
    /// Interleaved 2 of 5.
    public static let ITF = BarcodeFormat(rawValue: 0x0080)
    /// QR Code.
    public static let qrCode = BarcodeFormat(rawValue: 0x0100)
    /// UPC-A.
    public static let UPCA = BarcodeFormat(rawValue: 0x0200)
    /// UPC-E.
    public static let UPCE = BarcodeFormat(rawValue: 0x0400)
    /// PDF417.
    public static let PDF417 = BarcodeFormat(rawValue: 0x0800)
    /// Aztec Code.
    public static let aztec = BarcodeFormat(rawValue: 0x1000)

    /// ML Kit's single formats with the reader's.
    static let readerFormats: [(format: BarcodeFormat, reader: SwiftVisionTasks.BarcodeFormat)] = [
        (.code128, .code128), (.code39, .code39), (.code93, .code93), (.codaBar, .codabar), (.dataMatrix, .dataMatrix),
        (.EAN13, .ean13), (.EAN8, .ean8), (.ITF, .itf), (.qrCode, .qrCode), (.UPCA, .upcA), (.UPCE, .upcE),
        (.PDF417, .pdf417), (.aztec, .aztec),
    ]

    /// The format of a code the reader read as `format`; empty (ML Kit's unknown) for one ML Kit does not name.
    init(reading format: SwiftVisionTasks.BarcodeFormat) {
        self = Self.readerFormats.first { $0.reader == format }?.format ?? []
    }

    /// The formats the reader looks for: every one it knows for ``all``.
    var readerFormats: SwiftVisionTasks.BarcodeFormat {
        if isSuperset(of: .all) { return .all }
        return Self.readerFormats.filter { contains($0.format) }.reduce(into: []) { $0.formUnion($1.reader) }
    }
}
