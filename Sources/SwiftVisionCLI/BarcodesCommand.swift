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

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        do {
            _ = try BarcodeFormat(list: formats)
        } catch {
            throw ValidationError(error.localizedDescription)
        }
    }

    func run() throws {
        var options = BarcodesTask.Options()
        options.formats = formats
        options.fast = fast
        let task = try CommandTask.load(options, json: json) as BarcodesTask
        if logging.verbose { StandardStream.error.write("barcodes: reading with \(BarcodesTask.reader)\n") }
        try AnalysisOutput.forEachImage(images, json: json, label: "barcodes") { url, image in
            let found = try task.output(for: image)
            if let output = try MediaFiles.annotatedURL(for: url, draw: draw, inputCount: images.count) {
                try AnalysisOutput.write(image, to: output) { canvas in
                    for (index, barcode) in found.barcodes.enumerated() {
                        try canvas.drawQuadrilateral(barcode.corners, color: .palette(index))
                        try canvas.drawLabel(
                            "\(barcode.format): \(barcode.rawValue.prefix(40))", at: barcode.corners.topLeft,
                            color: .palette(index))
                    }
                }
            }
            try AnalysisOutput.print(TaskLine(file: url.path, output: found), json: json) { line in
                ["\(line.fileName): \(line.output.barcodes.count) barcode(s)"]
                    + line.output.barcodes.map { "  \($0.format) \"\($0.rawValue)\"" }
            }
        }
    }
}
