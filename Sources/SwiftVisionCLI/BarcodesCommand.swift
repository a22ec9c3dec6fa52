import ArgumentParser
import Foundation
import SwiftVision

struct BarcodesCommand: TaskCommand {
    typealias Task = BarcodesTask

    @OptionGroup var input: InputOptions

    @Option(
        help: ArgumentHelp(
            "Formats to read, comma-separated: names such as QRCode, EAN13, Code128, or linear, matrix, all.",
            valueName: "formats"))
    var formats = "all"

    @Flag(help: "One plain pass: no extra effort for rotated, inverted, small or damaged codes.")
    var fast = false

    @Option(help: "Write the image or video with the codes outlined (a folder when there are several inputs).")
    var draw: String?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        do {
            _ = try BarcodeFormat(list: formats)
        } catch {
            throw ValidationError(error.localizedDescription)
        }
    }

    func makeTask() throws -> BarcodesTask {
        var options = BarcodesTask.Options()
        options.formats = formats
        options.fast = fast
        let task = try CommandTask.load(options, json: input.json) as BarcodesTask
        if logging.verbose { StandardStream.error.write("barcodes: reading with \(BarcodesTask.reader)\n") }
        return task
    }

    func describe(_ line: TaskLine<BarcodesTask.Output>) -> [String] {
        ["\(line.place): \(line.output.barcodes.count) barcode(s)"]
            + line.output.barcodes.map { "  \($0.format) \"\($0.rawValue)\"" }
    }

    var renderings: [Rendering<BarcodesTask.Output>] {
        [Rendering(destination: draw) { image, found in
            var canvas = try ImageCanvas(image: image)
            for (index, barcode) in found.barcodes.enumerated() {
                try canvas.drawQuadrilateral(barcode.corners, color: .palette(index))
                try canvas.drawLabel("\(barcode.format): \(barcode.rawValue.prefix(40))", at: barcode.corners.topLeft, color: .palette(index))
            }
            return canvas.image
        }]
    }
}
