import CBarcodeShim
import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// zxing-cpp's reader over a gray buffer.
///
/// Debian's zxing-cpp 1.4 keeps its assertions, and one of them fails whenever `ReadBarcodes`
/// compares two reads of the same linear code (zxing-cpp issue #740). Comparisons of matrix codes are
/// safe, so there matrix codes are read all at once; linear codes are read one at a time (a single read
/// never compares), each found code painted white before the next read. zxing-cpp 3 reads all at once.
struct ZXingReader {
    var formats: BarcodeFormat
    var tryHarder: Bool
    var tryRotate: Bool
    var tryDownscale: Bool
    /// Also read the negative image (zxing-cpp 3 only).
    var tryInvert = false
    var maximumCount: Int
    var build = ZXingBuild.preferred

    /// At most this many single reads look for linear codes in one image.
    static let linearReadLimit = 16

    /// The codes in `gray`, with corners in its pixels.
    func barcodes(in gray: PixelBuffer) throws -> [Barcode] {
        precondition(gray.format == .gray, "zxing-cpp reads gray pixels")
        if case .zxing3(let library) = build {
            return try library.barcodes(in: gray, with: self)
        }
        var found: [Barcode] = []
        let matrix = formats.intersection(.matrix)
        if !matrix.isEmpty {
            found = try read(gray, formats: matrix, maximumCount: maximumCount)
        }
        let linear = formats.intersection(.linear)
        guard !linear.isEmpty else { return found }
        var remaining = gray
        var reads = [Int](repeating: 1, count: found.count)  // how often each found code has been read
        for _ in 0..<Self.linearReadLimit {
            if maximumCount > 0, found.count >= maximumCount { break }
            guard let code = try read(remaining, formats: linear, maximumCount: 1).first else { break }
            if let index = found.firstIndex(where: { $0.isSameCode(as: code) }) {
                // Read again beside the painted band: paint its whole height this time, or give up.
                reads[index] += 1
                guard reads[index] <= 2 else { break }
                try remaining.fill(code.coveringBars(reach: 1.2), with: [255])
            } else {
                found.append(code)
                reads.append(1)
                try remaining.fill(code.coveringBars(reach: 0.3), with: [255])
            }
        }
        return found
    }

    /// One call of Debian's zxing-cpp's `ReadBarcodes` (in libSwiftVisionBarcodes.so, loaded on first use).
    private func read(_ gray: PixelBuffer, formats: BarcodeFormat, maximumCount: Int) throws -> [Barcode] {
        let hints = SVBarcodeHints(
            formats: formats.rawValue, tryHarder: tryHarder ? 1 : 0, tryRotate: tryRotate ? 1 : 0,
            tryDownscale: tryDownscale ? 1 : 0, maximumCount: Int32(maximumCount))
        let library = try DebianZXingLibrary.shared()
        var results: UnsafeMutablePointer<SVBarcode>?
        var count: Int32 = 0
        let status = gray.bytes.withUnsafeBufferPointer { pixels in
            library.readBarcodes(
                pixels.baseAddress, Int32(gray.width), Int32(gray.height), Int32(gray.bytesPerRow), hints, &results,
                &count)
        }
        guard status == 0 else {
            throw VisionTaskError.engineFailed("zxing-cpp: " + (library.lastError().map { String(cString: $0) } ?? "failed"))
        }
        defer { library.freeBarcodes(results, count) }
        return (0..<Int(count)).map { Barcode(results![$0]) }
    }
}

extension Barcode {
    /// A copy of zxing-cpp's result.
    init(_ found: SVBarcode) {
        let corners = withUnsafeBytes(of: found.corners) { Array($0.bindMemory(to: Int32.self)) }
        let points = (0..<4).map { CGPoint(x: Double(corners[2 * $0]), y: Double(corners[2 * $0 + 1])) }
        let identifier = withUnsafeBytes(of: found.symbologyIdentifier) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        self.init(
            format: BarcodeFormat(rawValue: found.format),
            rawValue: String(decoding: UnsafeRawBufferPointer(start: found.text, count: Int(found.textLength)), as: UTF8.self),
            rawData: Data(bytes: found.bytes, count: Int(found.byteCount)),
            corners: Quadrilateral(topLeft: points[0], topRight: points[1], bottomRight: points[2], bottomLeft: points[3]),
            orientation: Int(found.orientation), isMirrored: found.isMirrored != 0, symbologyIdentifier: identifier)
    }

    /// The outline of a linear code's read lines widened along its bars by `reach` times its length
    /// on either side, and by a tenth of its length along its lines (the quiet zones).
    func coveringBars(reach: Double) -> [CGPoint] {
        let start = SIMD2((Double(corners.topLeft.x) + Double(corners.bottomLeft.x)) / 2,
                          (Double(corners.topLeft.y) + Double(corners.bottomLeft.y)) / 2)
        let end = SIMD2((Double(corners.topRight.x) + Double(corners.bottomRight.x)) / 2,
                        (Double(corners.topRight.y) + Double(corners.bottomRight.y)) / 2)
        let length = max(((end - start) * (end - start)).sum().squareRoot(), 1)
        let along = (end - start) / length, across = SIMD2(-along.y, along.x)
        let spread = corners.corners.map { (SIMD2(Double($0.x), Double($0.y)) - start) * across }.map { $0.sum() }
        let low = spread.min()! - reach * length, high = spread.max()! + reach * length
        let first = start - along * (0.1 * length), last = end + along * (0.1 * length)
        return [first + across * low, last + across * low, last + across * high, first + across * high]
            .map { CGPoint(x: $0.x, y: $0.y) }
    }
}
