import Foundation
import SwiftVision

/// Face detection and landmarks per photo, and per frame in video mode, against MediaPipe Python's
/// solutions (the same model files) in the same run.
enum FaceBenchmark {
    static let photos = ["astronaut.png", "zidane.jpg", "bus.jpg"]
    static let iterations = 10

    static func run(cache: SwiftVisionCache) throws {
        let paths = photos.map { cache.sample(named: $0).path }
        let frames = try panningFrames(over: try VisionImage(contentsOfFile: cache.sample(named: "zidane.jpg").path))
        let video = try writeVideo(frames, named: "faces")
        defer { try? FileManager.default.removeItem(at: video) }
        let peer = try PeerProcess.run(
            python: cache.root.appendingPathComponent("tools-venv/bin/python"), script: "mediapipe_faces_peer.py",
            arguments: ["\(iterations)", video.path] + paths, as: MediaPipePeer.self)

        print("\nFaces — 1 thread, median of \(iterations) runs; peer: MediaPipe 0.10.21 Python solutions, same .tflite files")
        print(BenchmarkRow.header)
        let fast = try detector(.fast, landmarks: false)
        let accurate = try detector(.accurate, landmarks: false)
        let landmarks = try detector(.accurate, landmarks: true)
        let defaultThreads = FaceDetectorOptions().threadCount
        let accurateDefault = try detector(.accurate, landmarks: false, threads: defaultThreads)
        let floor = try bareInvokeMilliseconds(of: "face_detection_short_range.tflite", cache: cache, iterations: iterations)
        print(BenchmarkRow(task: "bare invoke, short range (fast's floor)", swift: floor, peer: nil, peakMiB: peakResidentMiB()).line)
        for (name, path) in zip(photos, paths) {
            let image = try VisionImage(contentsOfFile: path)
            let mediapipe = peer.photos[path]
            for (label, detector, peerTime, peerFaces) in [
                ("fast (short range)", fast, mediapipe?.shortMs, mediapipe?.shortFaces),
                ("accurate (full range + looks)", accurate, mediapipe?.fullMs, mediapipe?.fullFaces),
                ("accurate, default \(defaultThreads) threads", accurateDefault, mediapipe?.fullMs, mediapipe?.fullFaces),
                ("accurate + landmarks", landmarks, mediapipe?.meshMs, mediapipe?.meshFaces),
            ] {
                let count = try detector.results(in: image).count
                let time = try timeMilliseconds(iterations: iterations) { _ = try detector.results(in: image) }
                let faces = " faces \(count) vs \(peerFaces.map(String.init) ?? "-")"
                let ofFloor = detector === fast ? String(format: " %.2f× floor", time.median / floor) : ""
                print(BenchmarkRow(task: "\(name) \(label)", swift: time, peer: peerTime, peakMiB: peakResidentMiB()).line + ofFloor + faces)
            }
        }
        for (label, wantsLandmarks) in [("video 640×480 per frame, tracking", false), ("video per frame, tracking + landmarks", true)] {
            let detector = try detector(.fast, landmarks: wantsLandmarks, tracking: true)
            let median = try ObjectBenchmark.perFrame(frames) { index, frame in
                _ = try detector.results(inVideoFrame: frame, timestampInMilliseconds: index * 33)
            }
            print(BenchmarkRow(task: label, swift: median, peer: peer.videoMs, peakMiB: peakResidentMiB()).line
                + String(format: " = %.0f frames/s", 1000 / median))
        }
        print(String(format: "peak memory: MediaPipe peer %.1f MiB", peer.peakMiB))
        try FaceStreamBenchmark.run(cache: cache, video: video)
    }

    static func detector(
        _ mode: FaceDetectorOptions.PerformanceMode, landmarks: Bool, tracking: Bool = false, threads: Int = 1
    ) throws -> FaceDetector {
        var options = FaceDetectorOptions()
        options.performanceMode = mode
        options.isTrackingEnabled = tracking
        options.threadCount = threads
        if landmarks {
            options.landmarkMode = .all
            options.contourMode = .all
        }
        return try FaceDetector(options: options)
    }

    /// `frames` (640×480) as a temporary 30 fps video for a Python peer to read.
    static func writeVideo(_ frames: [VisionImage], named name: String) throws -> URL {
        let video = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-bench-\(name).avi")
        let writer = try VideoWriter(url: video, width: 640, height: 480, framesPerSecond: 30)
        for frame in frames { try writer.append(frame) }
        writer.close()
        return video
    }

    /// 120 frames of 640×480: a window panning across the photo, as a camera would.
    static func panningFrames(over photo: VisionImage) throws -> [VisionImage] {
        let travel = photo.width - 720
        return try (0..<120).map { index in
            let x = travel * index / 119
            return try photo.cropped(to: CGRect(x: x, y: 0, width: 720, height: 540)).resized(width: 640, height: 480)
        }
    }

    struct MediaPipePeer: Decodable {
        struct Photo: Decodable {
            var shortMs: Double
            var shortFaces: Int
            var fullMs: Double
            var fullFaces: Int
            var meshMs: Double
            var meshFaces: Int
            enum CodingKeys: String, CodingKey {
                case shortMs = "short_ms", shortFaces = "short_faces", fullMs = "full_ms", fullFaces = "full_faces"
                case meshMs = "mesh_ms", meshFaces = "mesh_faces"
            }
        }
        var photos: [String: Photo]
        var videoMs: Double
        var peakMiB: Double
        enum CodingKeys: String, CodingKey { case photos, videoMs = "video_ms", peakMiB = "peak_mib" }
    }
}
