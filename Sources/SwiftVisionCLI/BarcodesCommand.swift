import ArgumentParser
import Foundation
import SwiftVision

struct BarcodesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "barcodes", abstract: "Read barcodes of every format zxing-cpp knows, several per image.")

    @Argument(help: "Image files.")
    var images: [String]

    @Option(
        help: ArgumentHelp(
            "Formats to read, comma-separated: names such as QRCode, EAN13, Code128, or linear, matrix, all.",
            valueName: "formats"))
    var formats = "all"

    @Flag(help: "One plain pass: no extra effort for rotated, inverted, small or damaged codes.")
    var fast = false

    @Flag(help: "Print JSON Lines.")
    var json = false

    @Option(help: "Write the image with the codes outlined (a file for one image, else a folder).")
    var draw: String?

    struct Report: Encodable {
        var file: String
        var barcodes: [Code]
    }

    struct Code: Encodable {
        var format: String
        var text: String
        var corners: [JSONPoint]
        var orientation: Int
    }

    func validate() throws {
        _ = try selectedFormats()
    }

    func selectedFormats() throws -> BarcodeFormat {
        try formats.split(separator: ",").reduce(into: BarcodeFormat()) { set, name in
            guard let format = BarcodeFormat(name: name.trimmingCharacters(in: .whitespaces)) else {
                let known = BarcodeFormat.named.map(\.name).joined(separator: ", ")
                throw ValidationError("unknown barcode format \(name); known: \(known), linear, matrix, all")
            }
            set.formUnion(format)
        }
    }

    func run() throws {
        var options = fast ? BarcodeScannerOptions.fast : BarcodeScannerOptions()
        options.formats = try selectedFormats()
        let scanner = BarcodeScanner(options: options)
        try AnalysisOutput.forEachImage(images, json: json, label: "barcodes") { url, image in
            let found = try scanner.results(in: image)
            if let output = MediaFiles.annotatedURL(for: url, draw: draw, inputCount: images.count) {
                try AnalysisOutput.write(image, to: output) { canvas in
                    for (index, barcode) in found.enumerated() {
                        try canvas.drawQuadrilateral(barcode.corners, color: .palette(index))
                        try canvas.drawLabel(
                            "\(barcode.format): \(barcode.rawValue.prefix(40))", at: barcode.corners.topLeft,
                            color: .palette(index))
                    }
                }
            }
            let report = Report(
                file: url.path,
                barcodes: found.map {
                    Code(
                        format: $0.format.description, text: $0.rawValue, corners: $0.corners.corners.map(JSONPoint.init),
                        orientation: $0.orientation)
                })
            try AnalysisOutput.print(report, json: json) { report in
                ["\(report.file): \(report.barcodes.count) barcode(s)"] + report.barcodes.map { "  \($0.format) \"\($0.text)\"" }
            }
        }
    }
}
