import Foundation
import MediaPipeTasksVision
import SwiftVision

/// Hand landmarks per photo, and per frame in video mode (tracking), against MediaPipe Python's hands
/// solution (the same model files) in the same run. The photos are cut from bus.jpg where its hands are
/// (the whole photo shows them too small for the palm detector): 280×280 with two hands, 400×400 with one.
enum HandBenchmark {
    static let cuts = [CGRect(x: 0, y: 420, width: 280, height: 280), CGRect(x: 0, y: 360, width: 400, height: 400)]
    static let iterations = 10

    static func run(cache: SwiftVisionCache) throws {
        let bus = try VisionImage(contentsOfFile: cache.sample(named: "bus.jpg").path)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-bench-hands")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = try cuts.enumerated().map { index, cut in
            let file = folder.appendingPathComponent("hands\(index).png")
            try bus.cropped(to: cut).write(to: file)
            return file.path
        } + [cache.sample(named: "bus.jpg").path]
        // The pan of FaceBenchmark over the hands, twice their size: both stay in view in every frame.
        let frames = try FaceBenchmark.panningFrames(over: bus.cropped(to: CGRect(x: 0, y: 380, width: 480, height: 360)).resized(width: 960, height: 720))
        let video = try FaceBenchmark.writeVideo(frames, named: "hands")
        defer { try? FileManager.default.removeItem(at: video) }
        let peer = try PeerProcess.run(
            python: cache.root.appendingPathComponent("tools-venv/bin/python"), script: "mediapipe_hands_peer.py",
            arguments: ["\(iterations)", video.path] + paths, as: LandmarkPeer.self)

        print("\nHands — 1 thread, median of \(iterations) runs; peer: MediaPipe 0.10.21 Python solutions, same .tflite files")
        BenchmarkRow.printHeader()
        var options = HandLandmarkerOptions()
        options.numHands = 2
        options.threadCount = 1
        let landmarker = try HandLandmarker(options: options)
        for path in paths {
            let image = try VisionImage(contentsOfFile: path)
            let count = try landmarker.detect(image: image).landmarks.count
            let time = try timeMilliseconds(iterations: iterations) { _ = try landmarker.detect(image: image) }
            let mediapipe = peer.photos[path]
            let name = "\(URL(fileURLWithPath: path).lastPathComponent) \(image.width)×\(image.height) hands"
            print(BenchmarkRow(task: name, swift: time, peer: mediapipe?.ms, peakMiB: peakResidentMiB()).line
                + " hands \(count) vs \(mediapipe.map { String($0.found) } ?? "-")")
        }
        // The floor of the two-hand photo: the palm detector's bare invoke and two of the landmark model's,
        // against MediaPipe's whole call on that photo (both run the models that often).
        let floor = try bareInvokeMilliseconds(of: "palm_detection_full.tflite", cache: cache, iterations: iterations)
            + 2 * bareInvokeMilliseconds(of: "hand_landmark_full.tflite", cache: cache, iterations: iterations)
        print(BenchmarkRow(task: "bare invokes, palms + 2 × landmarks (floor)", swift: floor, peer: peer.photos[paths[0]]?.ms, peakMiB: peakResidentMiB()).line)
        options.runningMode = .video
        let tracker = try HandLandmarker(options: options)
        try peer.printTracking(frames, task: "video 640×480 per frame, tracking 2 hands") { index, frame in
            _ = try tracker.detect(videoFrame: frame, timestampInMilliseconds: index * 33)
        }
        // One tracked hand (the issue's 100 frames/s goal), with the full and the lite models; ours only.
        for complexity in [1, 0] {
            var handOptions = HandsTask.Options()
            handOptions.maxHands = 1
            handOptions.modelComplexity = complexity
            handOptions.threads = 1
            let task = try HandsTask(options: handOptions)
            var state = task.makeStreamState()
            let median = try ObjectBenchmark.perFrame(frames) { _, frame in _ = try task.output(forFrame: frame, state: &state) }
            let name = "video 640×480, tracking 1 hand, \(complexity == 0 ? "lite" : "full") models"
            print(BenchmarkRow(task: name, swift: median, peer: nil, peakMiB: peakResidentMiB()).line + String(format: " = %.0f frames/s", 1000 / median))
        }
    }
}
