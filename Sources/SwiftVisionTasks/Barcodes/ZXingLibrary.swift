import CZXingC
import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// The functions of zxing-cpp 3's C API in the library scripts/build-zxing.sh builds, bound with `dlopen`
/// and `dlsym`. Immutable after loading, so it is safe to share.
final class ZXingLibrary: Sendable {
    let path: String
    /// zxing-cpp's version, such as `3.1.1`.
    let version: String
    let newImageView: ZXing_ImageView_newFunction
    let deleteImageView: ZXing_ImageView_deleteFunction
    let newOptions: ZXing_ReaderOptions_newFunction
    let deleteOptions: ZXing_ReaderOptions_deleteFunction
    let setTryHarder: ZXing_ReaderOptions_setFlagFunction
    let setTryRotate: ZXing_ReaderOptions_setFlagFunction
    let setTryInvert: ZXing_ReaderOptions_setFlagFunction
    let setTryDownscale: ZXing_ReaderOptions_setFlagFunction
    let setFormats: ZXing_ReaderOptions_setFormatsFunction
    let setMaxNumberOfSymbols: ZXing_ReaderOptions_setMaxNumberOfSymbolsFunction
    let readBarcodes: ZXing_ReadBarcodesFunction
    let deleteBarcodes: ZXing_Barcodes_deleteFunction
    let count: ZXing_Barcodes_sizeFunction
    let barcode: ZXing_Barcodes_atFunction
    let format: ZXing_Barcode_formatFunction
    let bytes: ZXing_Barcode_bytesFunction
    let text: ZXing_Barcode_stringFunction
    let symbologyIdentifier: ZXing_Barcode_stringFunction
    let extra: ZXing_Barcode_extraFunction
    let position: ZXing_Barcode_positionFunction
    let orientation: ZXing_Barcode_orientationFunction
    let isMirrored: ZXing_Barcode_isMirroredFunction
    let lastError: ZXing_LastErrorMsgFunction
    let free: ZXing_freeFunction

    /// Loads the library at `path` and binds its functions; throws ``VisionTaskError/engineFailed(_:)``
    /// when it is missing or lacks a function.
    init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw VisionTaskError.engineFailed("zxing-cpp 3: no library at \(path) (scripts/build-zxing.sh builds it)")
        }
        let library = try DynamicLibrary(path: path) { VisionTaskError.engineFailed("zxing-cpp 3 at \(path): \($0)") }
        self.path = path
        let version: ZXing_VersionFunction = try library.function("ZXing_Version")
        self.version = version().map { String(cString: $0) } ?? "3"
        newImageView = try library.function("ZXing_ImageView_new")
        deleteImageView = try library.function("ZXing_ImageView_delete")
        newOptions = try library.function("ZXing_ReaderOptions_new")
        deleteOptions = try library.function("ZXing_ReaderOptions_delete")
        setTryHarder = try library.function("ZXing_ReaderOptions_setTryHarder")
        setTryRotate = try library.function("ZXing_ReaderOptions_setTryRotate")
        setTryInvert = try library.function("ZXing_ReaderOptions_setTryInvert")
        setTryDownscale = try library.function("ZXing_ReaderOptions_setTryDownscale")
        setFormats = try library.function("ZXing_ReaderOptions_setFormats")
        setMaxNumberOfSymbols = try library.function("ZXing_ReaderOptions_setMaxNumberOfSymbols")
        readBarcodes = try library.function("ZXing_ReadBarcodes")
        deleteBarcodes = try library.function("ZXing_Barcodes_delete")
        count = try library.function("ZXing_Barcodes_size")
        barcode = try library.function("ZXing_Barcodes_at")
        format = try library.function("ZXing_Barcode_format")
        bytes = try library.function("ZXing_Barcode_bytes")
        text = try library.function("ZXing_Barcode_text")
        symbologyIdentifier = try library.function("ZXing_Barcode_symbologyIdentifier")
        extra = try library.function("ZXing_Barcode_extra")
        position = try library.function("ZXing_Barcode_position")
        orientation = try library.function("ZXing_Barcode_orientation")
        isMirrored = try library.function("ZXing_Barcode_isMirrored")
        lastError = try library.function("ZXing_LastErrorMsg")
        free = try library.function("ZXing_free")
    }

    /// The codes `reader` looks for in `gray` (one call of `ZXing_ReadBarcodes`), with corners in its pixels.
    /// Codes of formats that ``BarcodeFormat`` does not name are left out.
    func barcodes(in gray: PixelBuffer, with reader: ZXingReader) throws -> [Barcode] {
        let options = newOptions()
        defer { deleteOptions(options) }
        setTryHarder(options, reader.tryHarder)
        setTryRotate(options, reader.tryRotate)
        setTryInvert(options, reader.tryInvert)
        setTryDownscale(options, reader.tryDownscale)
        setMaxNumberOfSymbols(options, reader.maximumCount > 0 ? Int32(min(reader.maximumCount, 255)) : 255)
        let selected = reader.formats.zxing3Formats
        selected.withUnsafeBufferPointer { setFormats(options, $0.baseAddress, Int32($0.count)) }
        let found = gray.bytes.withUnsafeBufferPointer { pixels -> OpaquePointer? in
            guard let view = newImageView(
                pixels.baseAddress, Int32(gray.width), Int32(gray.height), ZXing_ImageFormat_Lum, Int32(gray.bytesPerRow), 1)
            else { return nil }
            defer { deleteImageView(view) }
            return readBarcodes(view, options)
        }
        guard let found else { throw VisionTaskError.engineFailed("zxing-cpp: " + takeString(lastError())) }
        defer { deleteBarcodes(found) }
        return (0..<count(found)).compactMap { index in
            barcode(found, index).flatMap { copy($0, formats: reader.formats) }
        }
    }

    /// A copy of zxing-cpp's result, nil for a format not in `formats`. Its content is given as
    /// zxing-cpp 1.4 gave it (see ``ZXing14Content``).
    private func copy(_ found: OpaquePointer, formats: BarcodeFormat) -> Barcode? {
        guard var kind = BarcodeFormat(zxing3Format: format(found)), formats.contains(kind) else { return nil }
        var length: Int32 = 0
        let content = bytes(found, &length)
        defer { free(content) }
        var data = content.map { Data(bytes: $0, count: Int(length)) } ?? Data()
        var text = takeString(text(found))
        // The C API's text ends at a NUL character: then the content's bytes are the text, when they are UTF-8.
        if data.contains(0), let whole = String(data: data, encoding: .utf8) { text = whole }
        let upcE = kind == .upcE ? takeString(extra(found, "UPCE")) : ""
        if let older = ZXing14Content(format: kind, text: text, upcE: upcE, formats: formats) {
            (kind, text, data) = (older.format, older.text, Data(older.text.utf8))
        }
        let corners = position(found)
        let points = [corners.topLeft, corners.topRight, corners.bottomRight, corners.bottomLeft]
            .map { CGPoint(x: Double($0.x), y: Double($0.y)) }
        return Barcode(
            format: kind, rawValue: text, rawData: data,
            corners: Quadrilateral(topLeft: points[0], topRight: points[1], bottomRight: points[2], bottomLeft: points[3]),
            orientation: Int(orientation(found)), isMirrored: isMirrored(found),
            symbologyIdentifier: takeString(symbologyIdentifier(found)))
    }

    /// The text of a string the library allocated, which is released.
    private func takeString(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
