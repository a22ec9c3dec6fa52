import ArgumentParser
import Foundation
import SwiftVision

extension TextRecognitionLevel: ExpressibleByArgument {}

struct TextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text", abstract: "Recognise printed text with Tesseract: blocks, lines and words.")

    @Argument(help: "Image files.")
    var images: [String]

    @Option(help: "Languages, joined with + or commas: Tesseract names (eng, deu) or BCP 47 tags (en-US).")
    var lang = "eng"

    @Option(help: "fast: one plain pass; accurate: orientation, even light and rescaling first.")
    var level = TextRecognitionLevel.accurate

    @Flag(help: "Print JSON Lines.")
    var json = false

    @Option(help: "Write the image with the words outlined (a file for one image, else a folder).")
    var draw: String?

    @OptionGroup var logging: LoggingOptions

    func run() throws {
        var options = TextTask.Options()
        options.lang = lang
        options.level = level
        let task = try CommandTask.load(options, json: json) as TextTask
        try AnalysisOutput.forEachImage(images, json: json, label: "text") { url, image in
            let text = try task.output(for: image)
            if let output = try MediaFiles.annotatedURL(for: url, draw: draw, inputCount: images.count) {
                try AnalysisOutput.write(image, to: output) { canvas in
                    for (index, block) in text.blocks.enumerated() {
                        try canvas.drawRectangle(block.frame, color: .palette(index))
                        for word in block.lines.flatMap(\.elements) {
                            try canvas.drawRectangle(word.frame, color: .palette(index), lineWidth: 1)
                        }
                    }
                }
            }
            try AnalysisOutput.print(TaskLine(file: url.path, output: text), json: json) { line in
                ["== \(line.fileName)", line.output.text]
            }
        }
    }
}
