import Foundation
import MLKit
import SwiftVision
import Vision

/// Object detection per photo against the whole Python pipeline on the same .tflite (letterbox,
/// ai-edge-litert invoke, decode, NMS), and the bare LiteRT invoke on both sides; stream mode and the
/// seeded trackers in frames per second at 640×480 with 1 and 5 objects; identity figures on a
/// synthetic video whose truth is known.
enum ObjectBenchmark {
    static let photos = ["bus.jpg", "dog.jpg", "zidane.jpg"]
    static let iterations = 10

    static func run(cache: SwiftVisionCache) throws {
        let paths = photos.map { cache.sample(named: $0).path }
        let model = cache.model(named: "yolov4_tiny_coco.tflite")
        // The peer runs before and after ours, half of the runs each time, so that neither side has the
        // machine's quieter moment to itself.
        func runPeer() throws -> Peer {
            try PeerProcess.run(
                python: cache.root.appendingPathComponent("venv/bin/python"), script: "objects_peer.py",
                arguments: ["\(iterations / 2)", model.path] + paths, as: Peer.self)
        }
        let before = try runPeer()
        let options = ObjectDetectorOptions()
        options.detectorMode = .singleImage
        options.threadCount = 1
        options.shouldEnableMultipleObjects = true
        let detector = ObjectDetector.objectDetector(options: options)
        var ours: [(Timing, Int)] = []
        for path in paths {
            let image = try VisionImage(contentsOfFile: path)
            var found = 0
            ours.append((try timeMilliseconds(iterations: iterations) { found = try detector.results(in: image.mlKitImage).count }, found))
        }
        let interpreter = try Interpreter(contentsOf: model, options: .init(threadCount: 1))
        let invoke = try timeMilliseconds(iterations: iterations) { try interpreter.invoke { _ in } readingOutputs: { _ in } }
        let after = try runPeer()

        print("\nObjects — YOLOv4-tiny, 1 thread, \(iterations) runs a side (the peer's in two halves, before and after ours)")
        print("peer: Python — Tests/Python/Reference/yolo_pipeline.py: cv2 letterbox (area), ai-edge-litert invoke, numpy decode and per-class NMS — on the decoded image")
        BenchmarkRow.printHeader()
        for ((name, path), (time, found)) in zip(zip(photos, paths), ours) {
            let peer = Timing(samples: before.pipelineMs[path, default: []] + after.pipelineMs[path, default: []])
            let task = "detect \(name) (\(found) vs \(before.detections[path] ?? 0) found)"
            print(BenchmarkRow(task: task, swift: time, peer: peer, peakMiB: peakResidentMiB()).line)
        }
        let peerInvoke = Timing(samples: before.invokeMs + after.invokeMs)
        print(BenchmarkRow(task: "bare LiteRT invoke (floor)", swift: invoke, peer: peerInvoke, peakMiB: peakResidentMiB()).line)

        let background = try VisionImage(contentsOfFile: cache.sample(named: "coffee.png").path).resized(width: 640, height: 480)
        let sprite = try VisionImage(contentsOfFile: cache.sample(named: "bus.jpg").path)
            .cropped(to: CGRect(x: 46, y: 406, width: 165, height: 487)).resized(width: 66, height: 195)
        for count in [1, 5] {
            let (frames, truth) = try SyntheticScene.frames(background: background, sprite: sprite, objects: count, frameCount: 60)
            let stream = ObjectDetectorOptions()
            stream.threadCount = 1
            stream.shouldEnableMultipleObjects = true
            let tracker = ObjectDetector.objectDetector(options: stream)
            var outputs: [[Object]] = []
            let streamTime = try perFrame(frames) { index, frame in
                outputs.append(try tracker.results(inVideoFrame: frame.mlKitImage, timestampInMilliseconds: index * 33))
            }
            let scores = SyntheticScene.identityScores(outputs: outputs, truth: truth)
            print(BenchmarkRow(task: "stream mode, \(count) object(s), per frame", swift: streamTime, peer: nil, peakMiB: peakResidentMiB()).line
                + String(format: " = %.0f frames/s; recall %.2f, precision %.2f, ID switches %d", 1000 / streamTime, scores.recall, scores.precision, scores.idSwitches))
            for level in TrackObjectRequest.TrackingLevel.allCases {
                let handler = SequenceRequestHandler()
                var observations = truth[0].map { DetectedObjectObservation(imageRect: $0, imageSize: CGSize(width: 640, height: 480)) }
                let time = try perFrame(frames) { _, frame in
                    observations = try observations.map { observation in
                        var request = TrackObjectRequest(detectedObjectObservation: observation)
                        request.trackingLevel = level
                        return try handler.perform(request, on: frame)
                    }
                }
                print(BenchmarkRow(task: "seeded \(level.rawValue) tracker, \(count) object(s)", swift: time, peer: nil, peakMiB: peakResidentMiB()).line
                    + String(format: " = %.0f frames/s", 1000 / time))
            }
        }
        print(String(format: "peak memory: objects peer %.1f MiB", max(before.peakMiB, after.peakMiB)))
    }

    /// Median milliseconds per frame of `body` over `frames`, in order.
    static func perFrame(_ frames: [VisionImage], _ body: (Int, VisionImage) throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        var samples: [Double] = []
        for (index, frame) in frames.enumerated() {
            samples.append(try clock.measure { try body(index, frame) }.inMilliseconds)
        }
        return Timing(samples: samples).median
    }

    struct Peer: Decodable {
        var pipelineMs: [String: [Double]]
        var detections: [String: Int]
        var invokeMs: [Double]
        var peakMiB: Double
        enum CodingKeys: String, CodingKey {
            case pipelineMs = "pipeline_ms", detections, invokeMs = "invoke_ms", peakMiB = "peak_mib"
        }
    }
}

/// People cut from a photo moving over another photo on known straight paths, for throughput and
/// identity figures.
enum SyntheticScene {
    static func frames(background: VisionImage, sprite: VisionImage, objects: Int, frameCount: Int) throws
        -> (frames: [VisionImage], truth: [[CGRect]])
    {
        let size = CGSize(width: sprite.width, height: sprite.height)
        let truth = (0..<frameCount).map { frame in
            (0..<objects).map { object in
                let lane = Double(object) / Double(max(objects, 1))
                return CGRect(
                    origin: CGPoint(x: 20 + lane * 500 + Double(frame) * (object.isMultiple(of: 2) ? 3 : -3) + (object.isMultiple(of: 2) ? 0 : 80),
                                    y: 60 + Double(object % 2) * 220),
                    size: size)
            }
        }
        let frames = try truth.map { boxes in
            var canvas = try ImageCanvas(image: background)
            for box in boxes { try canvas.drawImage(sprite, at: box.origin) }
            return canvas.image
        }
        return (frames, truth)
    }

    /// Recall and precision of boxes at IoU 0.5, and how often a truth object changes its reported ID.
    static func identityScores(outputs: [[Object]], truth: [[CGRect]]) -> (recall: Double, precision: Double, idSwitches: Int) {
        var matched = 0
        var lastID: [Int: Int] = [:]
        var switches = 0
        for (objects, boxes) in zip(outputs, truth) {
            for (index, box) in boxes.enumerated() {
                guard let match = objects.first(where: { $0.frame.intersectionOverUnion(with: box) >= 0.5 }) else { continue }
                matched += 1
                if let id = match.trackingID?.intValue {
                    if let previous = lastID[index], previous != id { switches += 1 }
                    lastID[index] = id
                }
            }
        }
        let truthCount = truth.map(\.count).reduce(0, +)
        let reported = outputs.map(\.count).reduce(0, +)
        return (Double(matched) / Double(max(truthCount, 1)), Double(matched) / Double(max(reported, 1)), switches)
    }
}
