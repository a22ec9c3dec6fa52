import ArgumentParser
import Foundation
import SwiftVision

extension TextRecognitionLevel: ExpressibleByArgument {}

struct TextCommand: TaskCommand {
    typealias Task = TextTask

    @OptionGroup var input: InputOptions

    @Option(help: "Languages, joined with + or commas: Tesseract names (eng, deu) or BCP 47 tags (en-US).")
    var lang = "eng"

    @Option(help: "fast: one plain pass; accurate: orientation, even light and rescaling first.")
    var level = TextRecognitionLevel.accurate

    @Option(help: "Write the image or video with the words outlined (a folder when there are several inputs).")
    var draw: String?

    @OptionGroup var logging: LoggingOptions

    func makeTask() throws -> TextTask {
        var options = TextTask.Options()
        options.lang = lang
        options.level = level
        return try CommandTask.load(options, json: input.json)
    }

    func describe(_ line: TaskLine<TextTask.Output>) -> [String] {
        ["== \(line.place)", line.output.text]
    }

    var renderings: [Rendering<TextTask.Output>] {
        [Rendering(destination: draw) { image, text in
            var canvas = try ImageCanvas(image: image)
            for (index, block) in text.blocks.enumerated() {
                try canvas.drawRectangle(block.frame, color: .palette(index))
                for word in block.lines.flatMap(\.elements) {
                    try canvas.drawRectangle(word.frame, color: .palette(index), lineWidth: 1)
                }
            }
            return canvas.image
        }]
    }
}
