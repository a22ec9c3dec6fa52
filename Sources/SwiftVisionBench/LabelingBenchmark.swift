import Foundation
import MLKit
import MediaPipeTasksVision
import SwiftVision

/// Image labeling and embedding on photos next to MediaPipe Python's ImageClassifier and ImageEmbedder
/// (the same model zoo files, 1 thread; the peer kept running, its runs taking turns with ours and with each
/// model's bare invoke, all pinned to one CPU), and the live-stream embedder on both sides under a producer
/// far faster than the model and under one about as fast.
enum LabelingBenchmark {
    static let photos = ["chelsea.png", "coffee.png", "bus.jpg", "zidane.jpg"]
    /// Runs a side, ours and the peer's in turns.
    static let iterations = 20
    static let streamSeconds = 2.0
    /// Producer periods in ms: far faster than the model, and about as fast as MediaPipe's model run.
    static let streamPeriods = [1, 5]
    static let peerGraceSeconds = 10.0

    static func run(cache: SwiftVisionCache) throws {
        let python = cache.root.appendingPathComponent("tools-venv/bin/python")
        let classifier = cache.model(named: "efficientnet_lite0_classifier.tflite")
        let embedderModel = cache.model(named: "efficientnet_lite0_embedder.tflite")
        let paths = photos.map { cache.sample(named: $0).path }
        let bus = try VisionImage(contentsOfFile: cache.sample(named: "bus.jpg").path)
        let regions = (0..<5).map { CGRect(x: 20 + $0 * 140, y: 200 + $0 * 60, width: 200, height: 420) }
        let normalizedRegions = regions.map {
            [$0.minX / Double(bus.width), $0.minY / Double(bus.height), $0.maxX / Double(bus.width), $0.maxY / Double(bus.height)]
        }
        let crops = CropsArgument(photo: cache.sample(named: "bus.jpg").path, regions: normalizedRegions)
        let cropsJSON = String(decoding: try JSONEncoder().encode(crops), as: UTF8.self)
        try CPUAffinity.onOneCPU { cpu in
            let peer = try PeerSession(
                python: python, script: "mediapipe_labeling_peer.py", arguments: ["serve", classifier.path, embedderModel.path, cropsJSON])
            let mediapipe = try peer.line(as: MediaPipeGreeting.self)
            print("\nLabeling and embedding — EfficientNet-Lite0 (model zoo), 1 thread, median of \(iterations) runs a side")
            print("peer: MediaPipe \(mediapipe.mediapipeVersion) Python ImageClassifier (max_results 1) and ImageEmbedder, same files, decoded photos,")
            print("       kept running: its runs, ours and the floor's (a bare invoke of the same model, compiled on its own) take turns,"
                + " each first in every third turn" + (cpu.map { ", all pinned to CPU \($0.number)" } ?? ""))
            print("       peak MiB: this process's, with the floors' compiled models")
            BenchmarkRow.printHeader()
            let labelerOptions = CustomImageLabelerOptions(localModel: LocalModel(path: classifier.path))
            labelerOptions.threadCount = 1
            labelerOptions.confidenceThreshold = 0
            labelerOptions.maxResultCount = 1
            let labeler = ImageLabeler.imageLabeler(options: labelerOptions)
            var embedderOptions = ImageEmbedderOptions(localModel: LocalModel(path: embedderModel.path))
            embedderOptions.threadCount = 1
            let embedder = try ImageEmbedder(options: embedderOptions)
            let interpreter = try Interpreter(contentsOf: embedderModel, options: .init(threadCount: 1))
            var format = try ImageTensorFormat(
                tensor: interpreter.inputs[0], metadata: interpreter.model.metadata?.inputs.first, resizeMode: .stretch)
            format.extendsEdges = true
            // The floors: each model's bare invoke, timed in the same turns as the calls that run it once.
            let labelFloor = try bareInvoke(of: "efficientnet_lite0_classifier.tflite", cache: cache)
            let embedFloor = try bareInvoke(of: "efficientnet_lite0_embedder.tflite", cache: cache)
            var tensor = Data(count: format.byteCount)
            for (name, path) in zip(photos, paths) {
                let image = try VisionImage(contentsOfFile: path)
                let convert = try medianMilliseconds(iterations: iterations) {
                    try tensor.withUnsafeMutableBytes { _ = try image.writeAsMediaPipe(into: $0, format: format) }
                }
                print(BenchmarkRow(task: "image→tensor \(name) 224×224", swift: convert, peer: nil, peakMiB: peakResidentMiB()).line)
                let top = try labeler.results(in: image.mlKitImage).first?.text ?? "-"
                let label = try peer.turns(iterations: iterations, request: "classify \(path)", as: PeerLabel.self, floor: labelFloor) {
                    _ = try labeler.results(in: image.mlKitImage)
                }
                let labelRow = BenchmarkRow(task: "label \(name)", swift: label.time, peer: label.peerTime, peakMiB: peakResidentMiB())
                print(labelRow.line + label.overFloor(busy: labelRow.busy) + " \(top) vs \(label.answer.topLabel)")
                let embed = try peer.turns(iterations: iterations, request: "embed \(path)", as: PeerTime.self, floor: embedFloor) {
                    _ = try embedder.embed(image: image)
                }
                let embedRow = BenchmarkRow(task: "embed \(name)", swift: embed.time, peer: embed.peerTime, peakMiB: peakResidentMiB())
                print(embedRow.line + embed.overFloor(busy: embedRow.busy))
            }
            let cropTurns = try peer.turns(iterations: iterations, request: "crops", as: PeerTime.self) {
                _ = try labeler.results(in: bus.mlKitImage, regions: regions)
            }
            print(BenchmarkRow(task: "label 5 crops of bus.jpg in one call", swift: cropTurns.time, peer: cropTurns.peerTime, peakMiB: peakResidentMiB()).line
                + " (peer: 5 calls with a region of interest)")
            print(String(format: "peak memory: MediaPipe peer %.1f MiB", cropTurns.answer.peakMiB))
        }
        try runLiveStream(cache: cache, python: python, model: embedderModel)
    }

    /// The same 640×480 frame sent every `period` milliseconds for `streamSeconds`, timestamps 1 ms apart,
    /// to our live-stream embedder and to MediaPipe's.
    static func runLiveStream(cache: SwiftVisionCache, python: URL, model: URL) throws {
        let photo = cache.sample(named: "bus.jpg")
        let frame = try VisionImage(contentsOfFile: photo.path).resized(width: 640, height: 480)
        print("\nLive-stream embedder — bus.jpg at 640×480, sent for \(Int(streamSeconds)) s, 1 thread; latency: call → result")
        let comparison = LiveStreamComparison(
            seconds: streamSeconds, periods: streamPeriods, peerGraceSeconds: peerGraceSeconds, python: python,
            peerScript: "mediapipe_labeling_peer.py")
        try comparison.run { period in
            try streamOurs(frame: frame, model: model, period: period)
        } peerArguments: { period in
            ["stream", model.path, photo.path, "\(streamSeconds)", "\(period)"]
        }
    }

    static func streamOurs(frame: VisionImage, model: URL, period: Int) throws -> StreamReport {
        var options = ImageEmbedderOptions(localModel: LocalModel(path: model.path))
        options.threadCount = 1
        options.runningMode = .liveStream
        let recorder = DeliveryRecorder()
        options.imageEmbedderLiveStreamDelegate = recorder
        let embedder = try ImageEmbedder(options: options)
        return try LiveStreamComparison.drive(seconds: streamSeconds, period: period, deliveries: recorder.deliveries) { index in
            try embedder.embedAsync(image: frame, timestampInMilliseconds: index)
        }
    }

    /// Notes when each live-stream result arrives, by timestamp.
    final class DeliveryRecorder: NSObject, ImageEmbedderLiveStreamDelegate, @unchecked Sendable {
        let deliveries = Deliveries()

        func imageEmbedder(
            _ imageEmbedder: ImageEmbedder, didFinishEmbedding result: ImageEmbedderResult?, timestampInMilliseconds: Int,
            error: (any Error)?
        ) {
            if result != nil { deliveries.note(timestampInMilliseconds) }
        }
    }

    /// The crops the peer classifies: a photo and regions as [left, top, right, bottom], normalised.
    struct CropsArgument: Encodable {
        var photo: String
        var regions: [[Double]]
    }

    /// The classifier peer's answer: the time of one call and its top label.
    struct PeerLabel: TimedPeerAnswer {
        var ms: Double
        var topLabel: String

        enum CodingKeys: String, CodingKey {
            case ms, topLabel = "top_label"
        }
    }
}
