import Foundation

/// zxing-cpp 3 names a format by two letters: its symbology's in the ISO/IEC 15424 identifier
/// (`Q` for QR Code) and a variant's (`m` for Micro QR Code), a space for the symbology as a whole.
extension BarcodeFormat {
    /// Each format with the zxing-cpp 3 formats it is read as: a symbology, or the variants that
    /// zxing-cpp 1.4 read as this format where the symbology has others (a symbology's variants that
    /// another format lists, such as Micro QR Code, are that format).
    static let zxing3Variants: [(format: BarcodeFormat, variants: [String])] = [
        (.qrCode, ["Q "]), (.microQRCode, ["Qm"]), (.dataMatrix, ["d "]), (.aztec, ["z "]), (.pdf417, ["L ", "Lc"]),
        (.maxiCode, ["U "]), (.ean8, ["E8"]), (.ean13, ["E1", "Ei"]), (.upcA, ["Ea"]), (.upcE, ["Ee"]),
        (.code39, ["A ", "As", "Ae"]), (.code93, ["G "]), (.code128, ["C "]), (.codabar, ["F "]), (.itf, ["I ", "I4"]),
        (.dataBar, ["eo", "es", "eO"]), (.dataBarExpanded, ["ee", "eE"]),
    ]

    /// The zxing-cpp 3 formats to look for to find the formats of this set.
    var zxing3Formats: [UInt32] {
        Self.zxing3Variants.filter { contains($0.format) }.flatMap(\.variants).map(Self.zxing3Code)
    }

    /// The format zxing-cpp 3 reports as `code`: a listed variant, else a listed symbology as a whole
    /// (`z` for both kinds of Aztec symbols). Nil for what this type does not name (rMQR, Telepen, …).
    init?(zxing3Format code: UInt32) {
        for wanted in [code, code & 0xFF | UInt32(UInt8(ascii: " ")) << 8] {
            if let match = Self.zxing3Variants.first(where: { $0.variants.map(Self.zxing3Code).contains(wanted) }) {
                self = match.format
                return
            }
        }
        return nil
    }

    /// zxing-cpp 3's number for the two letters of `name`.
    private static func zxing3Code(_ name: String) -> UInt32 {
        let letters = Array(name.utf8)
        return UInt32(letters[0]) | UInt32(letters[1]) << 8
    }
}
