import Foundation
import SwiftVision

/// Person segmentation on photos next to MediaPipe Python's SelfieSegmentation (the same
/// `selfie_segmentation.tflite`, 1 thread on both sides): the whole call, decoded photo in, image-size
/// float mask out; and the model-size mask alone, the floor of the call.
enum SegmentationBenchmark {
    static let photos = ["zidane.jpg", "astronaut.png", "bus.jpg"]
    static let iterations = 30

    struct Peer: Decodable {
        struct Photo: Decodable {
            var ms: Double
            var personFraction: Double
            enum CodingKeys: String, CodingKey { case ms, personFraction = "person_fraction" }
        }
        var photos: [String: Photo]
        var peakMiB: Double
        enum CodingKeys: String, CodingKey { case photos, peakMiB = "peak_mib" }
    }

    static func run(cache: SwiftVisionCache) throws {
        let paths = photos.map { cache.sample(named: $0).path }
        let peer = try PeerProcess.run(
            python: cache.root.appendingPathComponent("tools-venv/bin/python"), script: "mediapipe_segmentation_peer.py",
            arguments: ["\(iterations)"] + paths, as: Peer.self)
        print("\nPerson segmentation — selfie_segmentation.tflite (256×256), 1 thread, median of \(iterations) runs")
        print("peer: MediaPipe 0.10.21 Python SelfieSegmentation (model_selection=0), same file, decoded photos")
        BenchmarkRow.printHeader()
        let invoke = try bareInvokeMilliseconds(of: "selfie_segmentation.tflite", cache: cache, iterations: iterations)
        print(BenchmarkRow(task: "invoke selfie model, the floor", swift: invoke, peer: nil, peakMiB: peakResidentMiB()).line)
        var options = SegmentTask.Options()
        options.threads = 1
        let task = try SegmentTask(options: options)
        options.rawSize = true
        let raw = try SegmentTask(options: options)
        for (name, path) in zip(photos, paths) {
            let image = try VisionImage(contentsOfFile: path)
            let other = peer.photos[path]
            let fraction = try task.output(for: image).personFraction
            let full = try timeMilliseconds(iterations: iterations) { _ = try task.output(for: image) }
            print(BenchmarkRow(task: "segment \(name) \(image.width)×\(image.height)", swift: full, peer: other?.ms, peakMiB: peakResidentMiB()).line
                + String(format: " person %.3f vs %.3f", fraction, other?.personFraction ?? .nan))
            let model = try medianMilliseconds(iterations: iterations) { _ = try raw.output(for: image) }
            print(BenchmarkRow(task: "  model-size mask only", swift: model, peer: nil, peakMiB: peakResidentMiB()).line)
        }
        print(String(format: "peak memory: MediaPipe peer %.1f MiB", peer.peakMiB))
    }
}
