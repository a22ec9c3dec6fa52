import Foundation
import MediaPipeTasksVision
import SwiftVision

/// Pose landmarks per photo, and per frame in video mode (tracking), against MediaPipe Python's pose
/// solution (the same model files) in the same run.
enum PoseBenchmark {
    static let photos = ["person.jpg", "bus.jpg", "astronaut.png"]
    static let iterations = 10

    static func run(cache: SwiftVisionCache) throws {
        let paths = photos.map { cache.sample(named: $0).path }
        let person = try VisionImage(contentsOfFile: cache.sample(named: "person.jpg").path).resized(width: 960, height: 636)
        let frames = try FaceBenchmark.panningFrames(over: person)
        let video = try FaceBenchmark.writeVideo(frames, named: "pose")
        defer { try? FileManager.default.removeItem(at: video) }
        let peer = try PeerProcess.run(
            python: cache.root.appendingPathComponent("tools-venv/bin/python"), script: "mediapipe_pose_peer.py",
            arguments: ["\(iterations)", video.path] + paths, as: LandmarkPeer.self)

        print("\nPose — 1 thread, median of \(iterations) runs; peer: MediaPipe 0.10.21 Python solutions, same .tflite files")
        BenchmarkRow.printHeader()
        var options = PoseLandmarkerOptions()
        options.threadCount = 1
        let landmarker = try PoseLandmarker(options: options)
        for (name, path) in zip(photos, paths) {
            let image = try VisionImage(contentsOfFile: path)
            let count = try landmarker.detect(image: image).landmarks.count
            let time = try timeMilliseconds(iterations: iterations) { _ = try landmarker.detect(image: image) }
            let mediapipe = peer.photos[path]
            print(BenchmarkRow(task: "\(name) pose", swift: time, peer: mediapipe?.ms, peakMiB: peakResidentMiB()).line
                + " poses \(count) vs \(mediapipe.map { String($0.found) } ?? "-")")
        }
        // The floor of one pose in a photo: the detector's and the landmark model's bare invokes, against
        // MediaPipe's whole call on person.jpg (both run these two models once).
        let floor = try bareInvokeMilliseconds(of: "pose_detection.tflite", cache: cache, iterations: iterations)
            + bareInvokeMilliseconds(of: "pose_landmark_full.tflite", cache: cache, iterations: iterations)
        print(BenchmarkRow(task: "bare invokes, detector + landmarks (floor)", swift: floor, peer: peer.photos[paths[0]]?.ms, peakMiB: peakResidentMiB()).line)
        options.runningMode = .video
        let tracker = try PoseLandmarker(options: options)
        try peer.printTracking(frames, task: "video 640×480 per frame, tracking") { index, frame in
            _ = try tracker.detect(videoFrame: frame, timestampInMilliseconds: index * 33)
        }
    }
}

/// What a MediaPipe landmark peer (`mediapipe_pose_peer.py`, `mediapipe_hands_peer.py`) prints: per photo
/// the median time and how many poses or hands it found, the median time per video frame, its peak memory.
struct LandmarkPeer: Decodable {
    struct Photo: Decodable {
        var ms: Double
        var found: Int
    }
    var photos: [String: Photo]
    var videoMs: Double
    var peakMiB: Double
    enum CodingKeys: String, CodingKey { case photos, videoMs = "video_ms", peakMiB = "peak_mib" }

    /// Times `detect` on every frame and prints the tracking row next to the peer's, then the peer's memory.
    func printTracking(_ frames: [VisionImage], task: String, detect: (Int, VisionImage) throws -> Void) throws {
        let median = try ObjectBenchmark.perFrame(frames, detect)
        print(BenchmarkRow(task: task, swift: median, peer: videoMs, peakMiB: peakResidentMiB()).line + String(format: " = %.0f frames/s", 1000 / median))
        print(String(format: "peak memory: MediaPipe peer %.1f MiB", peakMiB))
    }
}
