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

    struct Report: Encodable {
        var file: String
        var text: String
        var blocks: [Block]
    }

    struct Block: Encodable {
        var text: String
        var frame: JSONRect
        var lines: [Line]
    }

    struct Line: Encodable {
        var text: String
        var frame: JSONRect
        var confidence: Float
        var words: [Word]
    }

    struct Word: Encodable {
        var text: String
        var frame: JSONRect
        var confidence: Float
    }

    func run() throws {
        let languages = lang.split(whereSeparator: { $0 == "+" || $0 == "," }).map(String.init)
        let recognizer = try TextRecognizer(options: TextRecognizerOptions(languages: languages, recognitionLevel: level))
        try AnalysisOutput.forEachImage(images, json: json, label: "text") { url, image in
            let text = try recognizer.results(in: image)
            if let output = MediaFiles.annotatedURL(for: url, draw: draw, inputCount: images.count) {
                try AnalysisOutput.write(image, to: output) { canvas in
                    for (index, block) in text.blocks.enumerated() {
                        try canvas.drawRectangle(block.frame, color: .palette(index))
                        for word in block.lines.flatMap(\.elements) {
                            try canvas.drawRectangle(word.frame, color: .palette(index), lineWidth: 1)
                        }
                    }
                }
            }
            try AnalysisOutput.print(Report(file: url.path, text: text), json: json) { report in
                ["== \(report.file)", report.text]
            }
        }
    }
}

extension TextCommand.Report {
    init(file: String, text: Text) {
        self.init(
            file: file, text: text.text,
            blocks: text.blocks.map { block in
                TextCommand.Block(
                    text: block.text, frame: JSONRect(block.frame),
                    lines: block.lines.map { line in
                        TextCommand.Line(
                            text: line.text, frame: JSONRect(line.frame), confidence: line.confidence,
                            words: line.elements.map {
                                TextCommand.Word(text: $0.text, frame: JSONRect($0.frame), confidence: $0.confidence)
                            })
                    })
            })
    }
}
