import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// The engine of ``BarcodesTask``: zxing-cpp over every format it knows, several codes per image.
/// A value type, safe to share between threads.
///
/// First zxing-cpp's own read (more scan lines, quarter turns, shrunk copies, negative image with
/// zxing-cpp 3: what its Python binding does by default); then extra passes that the options switch on,
/// each only where there is evidence of a code that no read covers: over striped places at a slant,
/// cut out and turned so that their stripes stand upright (zxing-cpp reads linear codes along rows and
/// columns only); and over small likely places read at double size, for matrix codes whose modules
/// are only a pixel or two wide. With zxing-cpp 1.4, which looks for Data Matrix and Aztec symbols
/// only near the middle of an image and reads no light codes, likely places are also read one by one,
/// enlarged when small, and the negative image is read too.
package struct BarcodeEngine: Sendable {
    /// What the scanner looks for and how hard it tries.
    package let options: BarcodeEngineOptions

    /// At most this many likely places are read one by one for Data Matrix and Aztec symbols.
    static let regionLimit = 16
    /// Places are read at these scales, while their longer side stays within `regionSide` pixels.
    static let regionScales = [1.0, 2]
    static let regionSide = 400.0
    /// Images up to this longer side, in pixels, are also read for matrix codes at double size when trying harder...
    static let enlargementLimit = 1400
    /// ...in likely places up to this longer side, in pixels.
    static let smallRegionSide = 200.0

    /// A scanner for `options`: by default every format, with every extra pass.
    package init(options: BarcodeEngineOptions = .init()) {
        self.options = options
    }

    /// The codes in `image`, with corners in its upright pixels.
    package func results(in image: VisionImage) throws -> [Barcode] {
        let gray = try image.uprightGray()
        var reader = ZXingReader(
            formats: options.formats, tryHarder: options.tryHarder, tryRotate: options.tryRotations,
            tryDownscale: options.tryDownscale, maximumCount: options.maximumCount)
        // zxing-cpp 3 finds Data Matrix and Aztec symbols anywhere and reads light codes itself.
        let current = if case .zxing3 = reader.build { true } else { false }
        reader.tryInvert = current && options.tryInverted
        let enlarge = options.tryHarder && max(gray.width, gray.height) <= Self.enlargementLimit
        let regions = options.tryHarder && !current ? try CodeRegions.proposals(in: gray, limit: Self.regionLimit) : []
        var found = try read(gray, with: reader, regions: regions)
        if options.tryInverted, !current {
            found.merge(try read(gray.inverted(), with: reader, regions: regions))
        }
        // The extra passes below run only where there is evidence of a code that no read covers yet.
        var measured = try found.map { try $0.withBarsMeasured(in: gray) }
        let places = options.tryRotations || enlarge ? try StripeRegions.find(in: gray) : nil
        if options.tryRotations, let places {
            let slanted = try readSlantedStripes(in: gray, with: reader, places: places.striped, besides: measured)
            measured.merge(try slanted.map { try $0.withBarsMeasured(in: gray) })
        }
        if enlarge, let places {
            let small = places.busy.prefix(Self.regionLimit).map { place in
                let margin = 0.3 * max(place.width, place.height) + 4
                return place.insetBy(dx: -margin, dy: -margin)
                    .intersection(CGRect(x: 0, y: 0, width: gray.width, height: gray.height)).integral
            }
            measured.merge(try readSmallMatrixCodes(in: gray, with: reader, regions: small, besides: measured))
        }
        // One report per symbol: of reads of one place (an ITF code also read in part), the longest.
        let unique = measured.filter { code in
            !measured.contains { $0.rawData.count > code.rawData.count && $0.isSameCode(as: code) }
        }
        return options.maximumCount > 0 ? Array(unique.prefix(options.maximumCount)) : unique
    }

    /// Linear and PDF417 codes at a slant, which zxing-cpp, reading along rows and columns, misses: the
    /// striped places whose stripes are slanted and that no code of `known` covers are gathered by
    /// direction, and each group is turned so that its stripes stand upright and cut out with a margin
    /// (one warp of only the pixels around its cells), and read.
    private func readSlantedStripes(
        in gray: PixelBuffer, with reader: ZXingReader, places: [StripeRegions.Region], besides known: [Barcode]
    ) throws -> [Barcode] {
        var linear = reader
        linear.formats = options.formats.intersection(BarcodeFormat.linear.union(.pdf417))
        // Turned upright already: the rows of a crop cross its bars, and a few of them are enough.
        (linear.tryHarder, linear.tryRotate, linear.tryInvert, linear.tryDownscale) = (false, false, false, false)
        guard !linear.formats.isEmpty else { return [] }
        var found: [Barcode] = []
        let unread = places.filter { region in
            Self.isSlanted(region.direction) && !known.covers(region.cells)
        }
        for region in StripeRegions.grouped(unread) {
            let corners = region.cells.flatMap { cell in
                [CGPoint(x: cell.minX, y: cell.minY), CGPoint(x: cell.maxX, y: cell.minY),
                 CGPoint(x: cell.maxX, y: cell.maxY), CGPoint(x: cell.minX, y: cell.maxY)]
            }
            found.merge(try linear.barcodes(in: gray, turnedBy: -region.direction, around: corners) { extent in
                0.2 * max(extent.width, extent.height) + 8
            })
        }
        return found
    }

    /// Matrix codes whose modules are only a pixel or two wide: each busy place of `regions` that no
    /// code of `known` covers and that is small enough for such a code, read at double size.
    private func readSmallMatrixCodes(
        in gray: PixelBuffer, with reader: ZXingReader, regions: [CGRect], besides known: [Barcode]
    ) throws -> [Barcode] {
        var matrix = reader
        matrix.formats = options.formats.intersection(.matrix)
        // One plain pass per crop: matrix codes are read at any turn, and the crops are small and many.
        (matrix.tryHarder, matrix.tryRotate, matrix.tryInvert, matrix.tryDownscale) = (false, false, false, false)
        guard !matrix.formats.isEmpty else { return [] }
        var found: [Barcode] = []
        for region in regions where max(region.width, region.height) <= Self.smallRegionSide {
            guard !(known + found).covers([region]) else { continue }
            let crop = try gray.cropped(
                x: Int(region.minX), y: Int(region.minY), width: Int(region.width), height: Int(region.height))
            let doubled = try crop.resized(width: 2 * crop.width, height: 2 * crop.height)
            found.merge(try matrix.barcodes(in: doubled).map { $0.scaled(by: (0.5, 0.5)).offset(by: region.origin) })
        }
        return found
    }

    /// The codes `reader` finds in `gray`, and the Data Matrix and Aztec symbols in each of
    /// `regions`, read at up to three times their size when small.
    private func read(_ gray: PixelBuffer, with reader: ZXingReader, regions: [CGRect]) throws -> [Barcode] {
        var found = try reader.barcodes(in: gray)
        var local = reader
        local.formats = options.formats.intersection([.dataMatrix, .aztec])
        guard !local.formats.isEmpty else { return found }
        for region in regions {
            let crop = try gray.cropped(
                x: Int(region.minX), y: Int(region.minY), width: Int(region.width), height: Int(region.height))
            if let codes = try readEnlarged(crop, with: local) {
                found.merge(codes.map { $0.offset(by: region.origin) })
            }
        }
        return found
    }

    /// The codes in a small `crop`, trying it at several sizes, then turned so that its strongest
    /// edges run along rows and columns: zxing-cpp 1.4's Aztec detector is sensitive to sampling
    /// and to rotation, so each try is another chance. Nil when no try finds a code.
    private func readEnlarged(_ crop: PixelBuffer, with reader: ZXingReader) throws -> [Barcode]? {
        let direction = try StripeDirections.strongest(in: crop, count: 1).first ?? 0
        let turns = Self.isSlanted(direction, margin: 2) ? [0, -direction] : [0]
        for turn in turns {
            for factor in Self.regionScales
            where factor == 1 || Double(max(crop.width, crop.height)) * factor <= Self.regionSide {
                let sized = factor == 1 ? crop : try crop.resized(
                    width: Int(Double(crop.width) * factor), height: Int(Double(crop.height) * factor), sharp: true)
                let codes = turn == 0 ? try reader.barcodes(in: sized) : try reader.barcodes(in: sized, turnedBy: turn)
                guard !codes.isEmpty else { continue }
                let scale = (Double(crop.width) / Double(sized.width), Double(crop.height) / Double(sized.height))
                return codes.map { $0.scaled(by: scale) }
            }
        }
        return nil
    }

    /// Whether stripes across `direction` (degrees) lie more than `margin` degrees from the rows and columns.
    private static func isSlanted(_ direction: Double, margin: Double = 8) -> Bool {
        let offset = direction.truncatingRemainder(dividingBy: 90)
        return offset > margin && offset < 90 - margin
    }
}

extension ZXingReader {
    /// The codes in `gray` turned by `degrees` about its centre, with corners mapped back to `gray`.
    func barcodes(in gray: PixelBuffer, turnedBy degrees: Double) throws -> [Barcode] {
        let (width, height) = (Double(gray.width), Double(gray.height))
        let corners = [CGPoint(x: 0, y: 0), CGPoint(x: width, y: 0), CGPoint(x: width, y: height), CGPoint(x: 0, y: height)]
        return try barcodes(in: gray, turnedBy: degrees, around: corners) { _ in 0 }
    }

    /// The codes in the part of `gray` around `points`, turned by `degrees`, with corners mapped back to
    /// `gray`: one warp straight from `gray` to the upright rectangle that holds the turned points with
    /// `margin(extent)` pixels on every side, `extent` being their turned box's size; white beyond `gray`.
    func barcodes(
        in gray: PixelBuffer, turnedBy degrees: Double, around points: [CGPoint], margin: (CGSize) -> Double
    ) throws -> [Barcode] {
        let rotation = AffineTransform(rotationByRadians: degrees * .pi / 180)
        let turned = points.map { rotation.transform($0) }
        guard let left = turned.map(\.x).min(), let right = turned.map(\.x).max(),
              let top = turned.map(\.y).min(), let bottom = turned.map(\.y).max()
        else { return [] }
        let space = margin(CGSize(width: right - left, height: bottom - top))
        var transform = rotation
        transform.append(AffineTransform(translationByX: (space - left).rounded(), byY: (space - top).rounded()))
        let upright = try gray.warped(
            by: transform, width: Int((right - left + 2 * space).rounded(.up)),
            height: Int((bottom - top + 2 * space).rounded(.up)), border: [255, 255, 255, 255])
        guard let back = transform.inverted() else { return [] }
        return try barcodes(in: upright).map { barcode in
            var barcode = barcode
            barcode.corners = barcode.corners.applying { back.transform($0) }
            barcode.orientation = (barcode.orientation - Int(degrees) + 360) % 360
            return barcode
        }
    }
}

extension Barcode {
    /// The same code with its corners scaled by `factor` horizontally and vertically.
    func scaled(by factor: (x: Double, y: Double)) -> Barcode {
        var barcode = self
        barcode.corners = corners.applying { CGPoint(x: $0.x * factor.x, y: $0.y * factor.y) }
        return barcode
    }

    /// The same code with its corners moved by `offset`.
    func offset(by offset: CGPoint) -> Barcode {
        var barcode = self
        barcode.corners = corners.applying { CGPoint(x: $0.x + offset.x, y: $0.y + offset.y) }
        return barcode
    }

    /// Whether `other` is this code found again: the same format and content with centres closer
    /// than half its size, or the same format mostly in the same place (a partial misread, which
    /// linear formats such as ITF allow).
    func isSameCode(as other: Barcode) -> Bool {
        guard format == other.format else { return false }
        let a = frame, b = other.frame
        if rawData == other.rawData, rawValue == other.rawValue {
            return hypot(a.midX - b.midX, a.midY - b.midY) <= max(a.width, a.height, b.width, b.height) / 2
        }
        let overlap = a.intersection(b)
        let smaller = min(a.width * a.height, b.width * b.height)
        return !overlap.isNull && smaller > 0 && overlap.width * overlap.height > 0.5 * smaller
    }
}

extension Array where Element == Barcode {
    /// Whether most of `boxes` have their centres inside the outline of one of the codes.
    func covers(_ boxes: [CGRect]) -> Bool {
        let inside = boxes.filter { box in
            contains { $0.corners.contains(CGPoint(x: box.midX, y: box.midY)) }
        }
        return !boxes.isEmpty && 2 * inside.count >= boxes.count
    }

    /// Appends the codes of `more` that are not already in the array.
    mutating func merge(_ more: [Barcode]) {
        for barcode in more where !contains(where: { $0.isSameCode(as: barcode) }) {
            append(barcode)
        }
    }
}
