import ArgumentParser
import Foundation
import SwiftVision

struct TrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "track", abstract: "Follow objects through a video from seed boxes in its first frame.")

    @Argument(help: "A video file.")
    var video: String

    @Option(name: .customLong("box"), help: "A seed box x,y,width,height in pixels of the first frame; repeat for several objects.")
    var boxes: [String]

    @Option(help: "fast (KCF) or accurate (CSRT).")
    var level: TrackObjectRequest.TrackingLevel = .accurate

    @Flag(help: "Print JSON Lines.")
    var json = false

    @Option(help: "Write the annotated video here.")
    var draw: String?

    func validate() throws {
        guard !boxes.isEmpty else { throw ValidationError("give at least one --box x,y,width,height") }
        for box in boxes where Self.rect(box) == nil {
            throw ValidationError("--box \(box) is not x,y,width,height with a positive width and height")
        }
    }

    static func rect(_ text: String) -> CGRect? {
        let values = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == 4, values[2] > 0, values[3] > 0 else { return nil }
        return CGRect(x: values[0], y: values[1], width: values[2], height: values[3])
    }

    func run() throws {
        try MediaFiles.process([video], json: json) { url in
            let reader = try VideoReader(url: url)
            let size = CGSize(width: reader.width, height: reader.height)
            var observations = boxes.compactMap(Self.rect).map { DetectedObjectObservation(imageRect: $0, imageSize: size) }
            let handler = SequenceRequestHandler()
            let writer = try draw.map { try VideoWriter(url: URL(fileURLWithPath: $0), width: reader.width, height: reader.height, framesPerSecond: reader.framesPerSecond) }
            let progress = ProgressBar(total: reader.reportedFrameCount, label: url.lastPathComponent)
            for frame in reader {
                observations = try observations.map { observation in
                    var request = TrackObjectRequest(detectedObjectObservation: observation)
                    request.trackingLevel = level
                    return try handler.perform(request, on: frame.image)
                }
                let line = TrackReport(file: url.path, frame: frame.index, timestampMs: frame.timestampInMilliseconds, tracks: observations.enumerated().map { index, observation in
                    TrackReport.TrackJSON(
                        id: index + 1, boundingBox: JSONRect(observation.imageRect(imageSize: size)),
                        confidence: (observation.confidence * 1000).rounded() / 1000, lost: observation.isLost)
                })
                if json {
                    try JSONLines.print(line)
                } else {
                    let states = line.tracks.map { $0.lost ? "#\($0.id) lost" : String(format: "#%d %.0f,%.0f %.2f", $0.id, $0.boundingBox.x, $0.boundingBox.y, $0.confidence) }
                    print("frame \(frame.index): " + states.joined(separator: "  "))
                }
                if let writer {
                    var canvas = try ImageCanvas(image: frame.image)
                    for track in line.tracks where !track.lost {
                        let box = CGRect(x: track.boundingBox.x, y: track.boundingBox.y, width: track.boundingBox.width, height: track.boundingBox.height)
                        try canvas.drawRectangle(box, color: .palette(track.id))
                        try canvas.drawLabel("#\(track.id)", at: box.origin, color: .palette(track.id))
                    }
                    try writer.append(canvas.image)
                }
                progress.update(frame.index + 1)
            }
            progress.finish()
            writer?.close()
            if let error = reader.error { throw error }
        }
    }
}

extension TrackObjectRequest.TrackingLevel: ExpressibleByArgument {}

/// One JSON line of `swiftvision track`.
struct TrackReport: Encodable {
    struct TrackJSON: Encodable {
        var id: Int
        var boundingBox: JSONRect
        var confidence: Float
        var lost: Bool
    }

    var file: String
    var frame: Int
    var timestampMs: Int
    var tracks: [TrackJSON]
}
