import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Barcode symbologies, as a set: ML Kit's `BarcodeFormat`, Vision's symbologies. The raw values
/// are zxing-cpp's.
public struct BarcodeFormat: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The set as zxing-cpp's `BarcodeFormat` bit flags.
    public let rawValue: Int32

    /// The formats whose zxing-cpp flags are set in `rawValue`.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Aztec Code.
    public static let aztec = BarcodeFormat(rawValue: 1 << 0)
    /// Codabar.
    public static let codabar = BarcodeFormat(rawValue: 1 << 1)
    /// Code 39.
    public static let code39 = BarcodeFormat(rawValue: 1 << 2)
    /// Code 93.
    public static let code93 = BarcodeFormat(rawValue: 1 << 3)
    /// Code 128.
    public static let code128 = BarcodeFormat(rawValue: 1 << 4)
    /// GS1 DataBar (formerly RSS-14).
    public static let dataBar = BarcodeFormat(rawValue: 1 << 5)
    /// GS1 DataBar Expanded.
    public static let dataBarExpanded = BarcodeFormat(rawValue: 1 << 6)
    /// Data Matrix.
    public static let dataMatrix = BarcodeFormat(rawValue: 1 << 7)
    /// EAN-8.
    public static let ean8 = BarcodeFormat(rawValue: 1 << 8)
    /// EAN-13.
    public static let ean13 = BarcodeFormat(rawValue: 1 << 9)
    /// Interleaved 2 of 5.
    public static let itf = BarcodeFormat(rawValue: 1 << 10)
    /// MaxiCode, read only when the symbol fills the image, unrotated.
    public static let maxiCode = BarcodeFormat(rawValue: 1 << 11)
    /// PDF417.
    public static let pdf417 = BarcodeFormat(rawValue: 1 << 12)
    /// QR Code.
    public static let qrCode = BarcodeFormat(rawValue: 1 << 13)
    /// UPC-A.
    public static let upcA = BarcodeFormat(rawValue: 1 << 14)
    /// UPC-E.
    public static let upcE = BarcodeFormat(rawValue: 1 << 15)
    /// Micro QR Code.
    public static let microQRCode = BarcodeFormat(rawValue: 1 << 16)

    /// One-dimensional codes: bars read along a line.
    public static let linear: BarcodeFormat = [
        .codabar, .code39, .code93, .code128, .ean8, .ean13, .itf, .dataBar, .dataBarExpanded, .upcA, .upcE,
    ]
    /// Two-dimensional codes.
    public static let matrix: BarcodeFormat = [.aztec, .dataMatrix, .maxiCode, .pdf417, .qrCode, .microQRCode]
    /// Every format zxing-cpp reads.
    public static let all: BarcodeFormat = [.linear, .matrix]

    /// The single formats with their names, in a stable order.
    public static let named: [(name: String, format: BarcodeFormat)] = [
        ("QRCode", .qrCode), ("MicroQRCode", .microQRCode), ("DataMatrix", .dataMatrix), ("Aztec", .aztec),
        ("PDF417", .pdf417), ("MaxiCode", .maxiCode), ("EAN8", .ean8), ("EAN13", .ean13), ("UPCA", .upcA),
        ("UPCE", .upcE), ("Code39", .code39), ("Code93", .code93), ("Code128", .code128), ("Codabar", .codabar),
        ("ITF", .itf), ("DataBar", .dataBar), ("DataBarExpanded", .dataBarExpanded),
    ]

    /// The format or group called `name` (case-insensitive): a single format's name such as `QRCode`
    /// or `EAN13`, or `linear`, `matrix`, `all`.
    public init?(name: String) {
        let groups: [(String, BarcodeFormat)] = [("linear", .linear), ("matrix", .matrix), ("all", .all)]
        guard let match = (Self.named + groups).first(where: { $0.0.lowercased() == name.lowercased() }) else {
            return nil
        }
        self = match.1
    }

    /// The union of a comma-separated `list` of names (see ``init(name:)``); throws for an unknown name.
    public init(list: String) throws {
        self = try list.split(separator: ",").reduce(into: BarcodeFormat()) { set, name in
            guard let format = BarcodeFormat(name: name.trimmingCharacters(in: .whitespaces)) else {
                let known = BarcodeFormat.named.map(\.name).joined(separator: ", ")
                throw VisionTaskError.invalidOption("unknown barcode format \(name); known: \(known), linear, matrix, all")
            }
            set.formUnion(format)
        }
    }

    /// The names of the single formats in the set, such as `QRCode` or `EAN13|UPCA`.
    public var description: String {
        Self.named.filter { contains($0.format) }.map(\.name).joined(separator: "|")
    }
}
