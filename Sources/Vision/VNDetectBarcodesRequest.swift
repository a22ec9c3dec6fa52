import Foundation
import SwiftVisionCore
import SwiftVisionTasks

/// A kind of barcode, as Vision's `VNBarcodeSymbology`, with Vision's names and raw values.
public struct VNBarcodeSymbology: RawRepresentable, Hashable, Sendable {
    /// Vision's name of the symbology, such as `VNBarcodeSymbologyQR`.
    public let rawValue: String

    /// The symbology named `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Aztec.
    public static let aztec = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyAztec")
    /// Codabar.
    public static let codabar = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCodabar")
    /// Code 39.
    public static let code39 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCode39")
    /// Code 39 with a checksum; not read here.
    public static let code39Checksum = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCode39Checksum")
    /// Code 39 Full ASCII; not read here.
    public static let code39FullASCII = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCode39FullASCII")
    /// Code 39 Full ASCII with a checksum; not read here.
    public static let code39FullASCIIChecksum = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCode39FullASCIIChecksum")
    /// Code 93.
    public static let code93 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCode93")
    /// Code 93 Full ASCII; not read here.
    public static let code93i = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCode93i")
    /// Code 128.
    public static let code128 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyCode128")
    /// Data Matrix.
    public static let dataMatrix = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyDataMatrix")
    /// EAN-8.
    public static let ean8 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyEAN8")
    /// EAN-13; as in Vision, a UPC-A code is read as the EAN-13 code with a leading 0.
    public static let ean13 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyEAN13")
    /// GS1 DataBar.
    public static let gs1DataBar = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyGS1DataBar")
    /// GS1 DataBar Expanded.
    public static let gs1DataBarExpanded = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyGS1DataBarExpanded")
    /// GS1 DataBar Limited; not read here.
    public static let gs1DataBarLimited = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyGS1DataBarLimited")
    /// Interleaved 2 of 5.
    public static let i2of5 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyI2of5")
    /// Interleaved 2 of 5 with a checksum; not read here.
    public static let i2of5Checksum = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyI2of5Checksum")
    /// ITF-14: Interleaved 2 of 5 with 14 digits.
    public static let itf14 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyITF14")
    /// MicroPDF417; not read here.
    public static let microPDF417 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyMicroPDF417")
    /// Micro QR.
    public static let microQR = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyMicroQR")
    /// MSI Plessey; not read here.
    public static let msiPlessey = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyMSIPlessey")
    /// PDF417.
    public static let pdf417 = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyPDF417")
    /// QR Code.
    public static let qr = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyQR")
    /// UPC-E.
    public static let upce = VNBarcodeSymbology(rawValue: "VNBarcodeSymbologyUPCE")

    /// The symbologies zxing-cpp reads, with the formats each asks it for.
    static let readable: [(symbology: VNBarcodeSymbology, format: BarcodeFormat)] = [
        (.aztec, .aztec), (.codabar, .codabar), (.code39, .code39), (.code93, .code93), (.code128, .code128),
        (.dataMatrix, .dataMatrix), (.ean8, .ean8), (.ean13, [.ean13, .upcA]), (.gs1DataBar, .dataBar),
        (.gs1DataBarExpanded, .dataBarExpanded), (.i2of5, .itf), (.itf14, .itf), (.microQR, .microQRCode),
        (.pdf417, .pdf417), (.qr, .qrCode), (.upce, .upcE),
    ]
}

/// Reads barcodes, as Vision's `VNDetectBarcodesRequest`, with the engine of ``DetectBarcodesRequest``
/// (zxing-cpp); its results are ``VNBarcodeObservation``s.
public final class VNDetectBarcodesRequest: VNImageBasedRequest {
    /// Vision's revisions 1 to 4, all served by the one engine.
    override public class var supportedRevisions: IndexSet { IndexSet(1...4) }

    /// The symbologies to read; every supported one by default. One that cannot be read here fails the
    /// request with ``VNErrorCode/invalidOption``.
    public var symbologies: [VNBarcodeSymbology] = VNBarcodeSymbology.readable.map(\.symbology)

    /// The symbologies this request can read, as Vision's `supportedSymbologies()`.
    public func supportedSymbologies() throws -> [VNBarcodeSymbology] {
        VNBarcodeSymbology.readable.map(\.symbology)
    }

    override func observations(in image: VisionImage, sequence: SequenceRequestHandler?) throws -> [VNObservation] {
        var request = DetectBarcodesRequest()
        request.symbologies = try symbologies.reduce(into: BarcodeFormat()) { formats, symbology in
            guard let readable = VNBarcodeSymbology.readable.first(where: { $0.symbology == symbology }) else {
                throw VisionTaskError.invalidOption("the barcode symbology \(symbology.rawValue) is not supported")
            }
            formats.formUnion(readable.format)
        }
        return try request.perform(on: imageInRegionOfInterest(image)).compactMap { barcode in
            VNBarcodeObservation(barcode, symbology: symbology(of: barcode.barcode))
        }
    }

    /// Vision's symbology of what zxing-cpp read, among those asked for; nil for a code not asked for
    /// (an ITF code of other than 14 digits when only ITF-14 is asked for).
    private func symbology(of barcode: Barcode) -> VNBarcodeSymbology? {
        if barcode.format == .itf {
            if barcode.rawValue.count == 14, symbologies.contains(.itf14) { return .itf14 }
            return symbologies.contains(.i2of5) ? .i2of5 : nil
        }
        if barcode.format == .upcA { return .ean13 }
        return VNBarcodeSymbology.readable.first { $0.format.contains(barcode.format) }?.symbology
    }
}

/// A barcode, as Vision's `VNBarcodeObservation`: its corners (a ``VNRectangleObservation``, in 0–1 of
/// the image, origin at the lower left), its symbology and its payload.
public final class VNBarcodeObservation: VNRectangleObservation, @unchecked Sendable {
    /// The symbology read.
    public let symbology: VNBarcodeSymbology
    /// The payload as text; a UPC-A code reads as its EAN-13 form, with a leading 0.
    public let payloadStringValue: String?
    /// The payload's bytes as encoded in the symbol.
    public let payloadData: Data?

    /// The observation of `barcode` as `symbology`; nil when the symbology is nil.
    init?(_ barcode: BarcodeObservation, symbology: VNBarcodeSymbology?) {
        guard let symbology else { return nil }
        self.symbology = symbology
        let isUPCA = barcode.symbology == .upcA
        payloadStringValue = isUPCA ? "0" + barcode.payloadString : barcode.payloadString
        payloadData = isUPCA ? Data("0".utf8) + barcode.payloadData : barcode.payloadData
        super.init(uuid: barcode.uuid, confidence: barcode.confidence, corners: barcode.normalizedCorners)
    }
}
