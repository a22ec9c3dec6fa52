import Foundation
import SwiftVision

/// `make bench`: latency and memory of decoding, image→tensor and bare model invoke on real photos,
/// then of each task, side by side with Python peers run on the same inputs.
///
/// `swiftvision-bench [SECTION...]` (or `BENCH_SECTIONS=soak,objects`) runs only the named sections: core, faces,
/// face-landmarker, pose, hands, objects, rectangles, recognition, labeling, segmentation, collections, service, service-streams, service-scaling, soak, peaks.
/// The peak memory column is this process's peak since its section began. Both sides run on one thread
/// (LiteRT, OpenCV, and OpenMP through `OMP_THREAD_LIMIT=1`, which the Python peers inherit).
@main
struct SwiftVisionBench {
    static let photos = ["bus.jpg", "zidane.jpg", "astronaut.png", "dog.jpg", "kite.jpg"]
    static let iterations = 30
    static let threads = 1

    static func main() throws {
        let cache = SwiftVisionCache.current
        if ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] != "\(threads)" {
            // OpenMP reads the limit when libgomp loads, before main (OpenCV's video I/O needs it): start again with it set.
            setenv("OMP_THREAD_LIMIT", "\(threads)", 1)
            execv("/proc/self/exe", CommandLine.unsafeArgv)
        }
        let openCVThreads = OpenCVThreads.set(threads)
        let listed = ProcessInfo.processInfo.environment["BENCH_SECTIONS"]?.split(separator: ",").map(String.init) ?? []
        let chosen = Set(CommandLine.arguments.dropFirst() + listed)
        let sections: [(String, (SwiftVisionCache) throws -> Void)] = [
            ("core", runCore), ("faces", FaceBenchmark.run), ("face-landmarker", FaceLandmarkerBenchmark.run), ("pose", PoseBenchmark.run),
            ("hands", HandBenchmark.run), ("objects", ObjectBenchmark.run),
            ("rectangles", RectangleBenchmark.run), ("recognition", RecognitionBenchmark.run), ("labeling", LabelingBenchmark.run),
            ("segmentation", SegmentationBenchmark.run), ("collections", CollectionsBenchmark.run), ("service", ServiceBenchmark.run),
            ("service-streams", ServiceBenchmark.runStreams), ("service-scaling", ServiceScalingBenchmark.run), ("soak", SoakBenchmark.run),
            ("peaks", PeakMemoryBenchmark.run),
        ]
        print("threads, both sides: LiteRT/XNNPACK \(threads), OpenCV \(openCVThreads) (peers: cv2.setNumThreads(1)),"
            + " OMP_THREAD_LIMIT=\(threads); \(warmUpRuns) warm-up run; median and IQR: linear quantiles (timing.py's)")
        for (name, run) in sections where chosen.isEmpty || chosen.contains(name) {
            resetPeakResidentMemory()
            try run(cache)
            HostLoad.shared.endTable()
        }
    }

    static func runCore(cache: SwiftVisionCache) throws {
        let modelURL = cache.model(named: "face_detection_short_range.tflite")
        let paths = photos.map { cache.sample(named: $0).path }
        let peer = try runPeer(model: modelURL.path, photos: paths, cache: cache)
        print("SwiftVision benchmark — face_detection_short_range.tflite, \(threads) thread, median of \(iterations) runs")
        print("peer: Python 3 + OpenCV \(peer.decodeLabel) and ai-edge-litert 2.3.0 Interpreter, same files, same run")
        BenchmarkRow.printHeader()

        let interpreter = try Interpreter(contentsOf: modelURL, options: .init(threadCount: threads))
        let format = try ImageTensorFormat(
            tensor: interpreter.inputs[0], metadata: interpreter.model.metadata?.inputs.first, resizeMode: .letterbox)
        var tensor = Data(count: format.byteCount)

        for (name, path) in zip(photos, paths) {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let image = try VisionImage(data: data)
            let decode = try timeMilliseconds(iterations: iterations) { _ = try VisionImage(data: data) }
            print(BenchmarkRow(task: "decode \(name) \(image.width)×\(image.height)", swift: decode, peer: peer.decode[path], peakMiB: peakResidentMiB()).line)
            let small = ImageDecodingOptions(minimumSize: CGSize(width: format.width, height: format.height))
            let reduced = try medianMilliseconds(iterations: iterations) { _ = try VisionImage(data: data, options: small) }
            print(BenchmarkRow(task: "decode \(name) reduced for 128×128", swift: reduced, peer: nil, peakMiB: peakResidentMiB()).line)
            let convert = try medianMilliseconds(iterations: iterations) {
                try tensor.withUnsafeMutableBytes { _ = try image.write(into: $0, format: format) }
            }
            print(BenchmarkRow(task: "image→tensor \(name) letterbox 128×128", swift: convert, peer: nil, peakMiB: peakResidentMiB()).line)
        }
        let input = [Data(count: interpreter.inputs[0].byteCount)]
        let invoke = try medianMilliseconds(iterations: iterations * 4) { _ = try interpreter.invoke(inputs: input) }
        print(BenchmarkRow(task: "invoke face_detection_short_range", swift: invoke, peer: peer.invoke, peakMiB: peakResidentMiB()).line)
        let zeroCopy = try medianMilliseconds(iterations: iterations * 4) {
            try interpreter.invoke { _ in } readingOutputs: { _ in }
        }
        print(BenchmarkRow(task: "invoke, buffers filled in place", swift: zeroCopy, peer: peer.invoke, peakMiB: peakResidentMiB()).line)
        print(String(format: "peak memory: swiftvision-bench %.1f MiB, Python peer %.1f MiB", peakResidentMiB(), peer.peakMiB))
    }

    struct PeerResult: Decodable {
        var decode: [String: Double]
        var invoke: Double
        var peakMiB: Double
        var decodeLabel: String { "cv2.imdecode" }

        enum CodingKeys: String, CodingKey {
            case decode = "decode_ms", invoke = "invoke_ms", peakMiB = "peak_mib"
        }
    }

    static func runPeer(model: String, photos: [String], cache: SwiftVisionCache) throws -> PeerResult {
        try PeerProcess.run(
            python: cache.root.appendingPathComponent("venv/bin/python"), script: "python_peer.py",
            arguments: [model, "\(threads)", "\(iterations)"] + photos, as: PeerResult.self)
    }
}
