// Finds the largest rectangle in a video's first frame and follows it through the video by its uuid,
// written as an iOS app does with Vision: the requests, handlers and observations are Vision's; only the
// frames come from SwiftVision's VideoReader, where an app has its camera's sample buffers.
//
//     swift run example-track-rectangle VIDEO
// prints, per frame: its index, the observation's uuid, its confidence and its normalised bounding box
// (Vision's lower-left origin).
import Foundation
import SwiftVisionCore
import Vision

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: example-track-rectangle VIDEO\n".utf8))
    exit(64)
}

do {
    let video = try VideoReader(url: URL(fileURLWithPath: CommandLine.arguments[1]))
    guard let first = video.next() else {
        FileHandle.standardError.write(Data("error: the video has no frame\n".utf8))
        exit(1)
    }

    let detect = VNDetectRectanglesRequest()
    detect.maximumObservations = 1
    try VNImageRequestHandler(image: first.image).perform([detect])
    guard let rectangle = detect.results?.first as? VNRectangleObservation else {
        FileHandle.standardError.write(Data("error: no rectangle in the first frame\n".utf8))
        exit(1)
    }

    let track = VNTrackRectangleRequest(rectangleObservation: rectangle)
    track.trackingLevel = .accurate
    let sequence = VNSequenceRequestHandler()
    var index = 1
    while let frame = video.next() {
        try sequence.perform([track], on: frame.image)
        guard let seen = track.results?.first as? VNDetectedObjectObservation else { break }
        let box = seen.boundingBox
        print(String(
            format: "%d %@ %.3f %.4f %.4f %.4f %.4f", index, seen.uuid.uuidString, seen.confidence, box.minX, box.minY, box.width,
            box.height))
        track.inputObservation = seen
        index += 1
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error.localizedDescription)\n".utf8))
    exit(1)
}
