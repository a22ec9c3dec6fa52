import Foundation
import SwiftVisionCore
import SwiftVisionRuntime

/// Reads barcodes of every format zxing-cpp knows, several per image, with extra passes for slanted,
/// inverted, small and off-centre codes.
public struct BarcodesTask: VisionTask {
    /// The settings of the barcodes task, named as the `barcodes` command's options.
    public struct Options: Codable, Hashable, Sendable {
        /// Formats to read, comma-separated: names such as QRCode, EAN13, Code128, or linear, matrix, all.
        public var formats = "all"
        /// One plain pass: no extra effort for rotated, inverted, small or damaged codes.
        public var fast = false
        /// Unless fast: scan more lines and look longer for damaged or small codes.
        public var tryHarder = true
        /// Unless fast: also look for codes turned by a quarter or half turn, and linear codes at a slant.
        public var tryRotations = true
        /// Unless fast: also look in shrunk copies of large images.
        public var tryDownscale = true
        /// Unless fast: also look for light codes on a dark ground.
        public var tryInverted = true
        /// At most this many codes; 0 for no limit.
        public var max = 0

        /// The default settings.
        public init() {}

        /// The task's options for the ML Kit-style `options`.
        package init(_ options: BarcodeEngineOptions) {
            formats = BarcodeFormat.named.filter { options.formats.contains($0.format) }.map(\.name).joined(separator: ",")
            tryHarder = options.tryHarder
            tryRotations = options.tryRotations
            tryDownscale = options.tryDownscale
            tryInverted = options.tryInverted
            max = options.maximumCount
        }

        /// The engine's options; throws for an unknown format name.
        func scannerOptions() throws -> BarcodeEngineOptions {
            var options = fast ? BarcodeEngineOptions.fast : BarcodeEngineOptions(
                tryHarder: tryHarder, tryRotations: tryRotations, tryDownscale: tryDownscale, tryInverted: tryInverted)
            options.formats = try BarcodeFormat(list: formats)
            guard max >= 0 else { throw VisionTaskError.invalidOption("must not be negative, not \(max)", key: "max") }
            options.maximumCount = max
            return options
        }
    }

    /// The codes of one image.
    public struct Output: Codable, Sendable, Equatable {
        /// The codes read.
        public var barcodes: [Barcode]

        /// The codes `barcodes`.
        public init(barcodes: [Barcode]) {
            self.barcodes = barcodes
        }
    }

    /// Named `barcodes`; needs no model.
    public static let descriptor = TaskDescriptor(
        name: "barcodes", title: "Barcodes", summary: "Barcodes of every format zxing-cpp reads")
    /// The default settings.
    public static var defaultOptions: Options { Options() }

    /// The zxing-cpp that reads the pixels, in words: 3.x as scripts/build-zxing.sh builds it, or Debian's 1.4
    /// with the reason 3.x could not be loaded.
    public static var reader: String {
        ZXingBuild.preferred.description + (ZXingBuild.fallbackReason.map { "; zxing-cpp 3 not loaded: \($0)" } ?? "")
    }

    /// The settings the task was made with.
    public let options: Options
    private let scanner: BarcodeEngine

    /// Checks the format names; there is no model to load.
    public init(options: Options, store: ModelStore) throws {
        self.options = options
        scanner = BarcodeEngine(options: try options.scannerOptions())
    }

    /// The codes in one image.
    public func output(for image: VisionImage) throws -> Output {
        Output(barcodes: try scanner.results(in: image))
    }
}
