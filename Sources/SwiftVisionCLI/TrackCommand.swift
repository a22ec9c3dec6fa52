import ArgumentParser
import Foundation
import SwiftVision

struct TrackCommand: TaskCommand {
    typealias Task = TrackTask

    static let discussion = "The seed boxes are placed in the first frame of each video, stream or camera."

    @OptionGroup var input: InputOptions

    @Option(name: .customLong("box"), help: "A seed box x,y,width,height in pixels of the first frame; repeat for several objects.")
    var boxes: [String]

    @Option(help: "fast (KCF) or accurate (CSRT).")
    var level: TrackTask.Level = .accurate

    @Option(help: "Write the annotated video here (a folder when there are several inputs).")
    var draw: String?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard !boxes.isEmpty else { throw ValidationError("give at least one --box x,y,width,height") }
        for box in boxes where Self.rect(box) == nil {
            throw ValidationError("--box \(box) is not four finite numbers x,y,width,height with a positive width and height")
        }
    }

    static func rect(_ text: String) -> CGRect? {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        let values = fields.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard fields.count == 4, values.count == 4, values.allSatisfy(\.isFinite), values[2] > 0, values[3] > 0 else { return nil }
        return CGRect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    func makeTask() throws -> TrackTask {
        var options = TrackTask.Options()
        options.boxes = boxes.compactMap(Self.rect).map(PixelRect.init)
        options.level = level
        return try CommandTask.load(options, json: input.json)
    }

    func describe(_ line: TaskLine<TrackTask.Output>) -> [String] {
        let states = line.output.tracks.map {
            $0.lost ? "#\($0.id) lost" : String(format: "#%d %.0f,%.0f %.2f", $0.id, $0.boundingBox.x, $0.boundingBox.y, $0.confidence)
        }
        return ["\(line.place): " + states.joined(separator: "  ")]
    }

    var renderings: [Rendering<TrackTask.Output>] {
        [Rendering(destination: draw) { image, output in
            var canvas = try ImageCanvas(image: image)
            for track in output.tracks where !track.lost {
                try canvas.drawRectangle(track.boundingBox.rect, color: .palette(track.id))
                try canvas.drawLabel("#\(track.id)", at: track.boundingBox.rect.origin, color: .palette(track.id))
            }
            return canvas.image
        }]
    }
}

extension TrackTask.Level: ExpressibleByArgument {}
