import Foundation
import MLKit
import SwiftVision

/// Face detection and landmarks per photo, and per frame in video mode, against MediaPipe Python's
/// solutions (the same model files) in the same run: the peer is kept running and its runs on the photos
/// alternate with ours one by one (in fast mode, also with the short-range model's bare invoke), all pinned to one CPU.
enum FaceBenchmark {
    static let photos = ["astronaut.png", "zidane.jpg", "bus.jpg"]
    /// Runs a side, ours and the peer's in turns.
    static let iterations = 10

    static func run(cache: SwiftVisionCache) throws {
        let paths = photos.map { cache.sample(named: $0).path }
        let images = try paths.map { try VisionImage(contentsOfFile: $0) }
        let frames = try panningFrames(over: try VisionImage(contentsOfFile: cache.sample(named: "zidane.jpg").path))
        let video = try writeVideo(frames, named: "faces")
        defer { try? FileManager.default.removeItem(at: video) }
        let defaultThreads = FaceDetectorOptions().threadCount
        let accurateDefault = try detector(.accurate, landmarks: false, threads: defaultThreads)
        // Its helper threads start now, before the pinning below, and keep every CPU allowed.
        for image in images { _ = try accurateDefault.results(in: image.mlKitImage) }
        try CPUAffinity.onOneCPU { cpu in
            let (peer, mediapipe) = try PeerSession.mediaPipe(script: "mediapipe_faces_peer.py", cache: cache)
            print("\nFaces — 1 thread, median of \(iterations) runs a side; peer: MediaPipe \(mediapipe)"
                + " Python solutions, same .tflite files,")
            print("       kept running: its runs and ours alternate one by one on the decoded photo, each side first in every other turn"
                + (cpu.map { ", both pinned to CPU \($0.number)" } ?? ""))
            print("       (default-threads rows: ours on any CPU, the peer's pinned);"
                + " video rows: the peer's pass over all frames, then ours, not in turns")
            print("       fast rows: the floor (a bare invoke of the short-range model, compiled on its own) takes turns with both,"
                + " each of the three first in every third turn")
            BenchmarkRow.printHeader()
            let fast = try detector(.fast, landmarks: false)
            let accurate = try detector(.accurate, landmarks: false)
            let landmarks = try detector(.accurate, landmarks: true)
            // Fast mode runs the short-range model once per photo, unless a face needs the checks.
            let floor = try bareInvoke(of: "face_detection_short_range.tflite", cache: cache)
            for ((name, path), image) in zip(zip(photos, paths), images) {
                for (label, detector, request) in [
                    ("fast (short range)", fast, "short"), ("accurate (full range + looks)", accurate, "full"),
                    ("accurate, default \(defaultThreads) threads", accurateDefault, "full"), ("accurate + landmarks", landmarks, "mesh"),
                ] {
                    let count = try detector.results(in: image.mlKitImage).count
                    func takeTurns() throws -> Turns<PeerCount> {
                        try peer.turns(
                            iterations: iterations, request: "\(request) \(path)", as: PeerCount.self, floor: detector === fast ? floor : nil
                        ) { _ = try detector.results(in: image.mlKitImage) }
                    }
                    let turns = try detector !== accurateDefault ? takeTurns() : cpu?.unpinned(takeTurns) ?? takeTurns()
                    let faces = " faces \(count) vs \(turns.answer.count)"
                    let row = BenchmarkRow(task: "\(name) \(label)", swift: turns.time, peer: turns.peerTime, peakMiB: peakResidentMiB())
                    print(row.line + turns.overFloor(busy: row.busy) + faces)
                }
            }
            let stream = try peer.answer(to: "video \(video.path)", as: PeerTime.self)
            for (label, wantsLandmarks) in [("video 640×480 per frame, tracking", false), ("video per frame, tracking + landmarks", true)] {
                let detector = try detector(.fast, landmarks: wantsLandmarks, tracking: true)
                let median = try ObjectBenchmark.perFrame(frames) { index, frame in
                    _ = try detector.results(inVideoFrame: frame.mlKitImage, timestampInMilliseconds: index * 33)
                }
                print(BenchmarkRow(task: label, swift: median, peer: stream.ms, peakMiB: peakResidentMiB()).line
                    + String(format: " = %.0f frames/s", 1000 / median))
            }
            print(String(format: "peak memory: MediaPipe peer %.1f MiB", stream.peakMiB))
        }
        try FaceStreamBenchmark.run(cache: cache, video: video)
    }

    static func detector(
        _ mode: FaceDetectorOptions.PerformanceMode, landmarks: Bool, tracking: Bool = false, threads: Int = 1
    ) throws -> FaceDetector {
        let options = FaceDetectorOptions()
        options.minFaceSize = 0.02
        options.performanceMode = mode
        options.isTrackingEnabled = tracking
        options.threadCount = threads
        if landmarks {
            options.landmarkMode = .all
            options.contourMode = .all
        }
        return FaceDetector.faceDetector(options: options)
    }

    /// `frames` (640×480) as a temporary 30 fps video for a Python peer to read.
    static func writeVideo(_ frames: [VisionImage], named name: String) throws -> URL {
        let video = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-bench-\(name).avi")
        let writer = try VideoWriter(url: video, width: 640, height: 480, framesPerSecond: 30)
        for frame in frames { try writer.append(frame) }
        writer.close()
        return video
    }

    /// 120 frames of 640×480: a window of `width`×`height` from the photo's top edge, panning across it from
    /// left to right, as a camera would.
    static func panningFrames(over photo: VisionImage, width: Int = 720, height: Int = 540) throws -> [VisionImage] {
        let travel = photo.width - width
        return try (0..<120).map { index in
            let x = travel * index / 119
            return try photo.cropped(to: CGRect(x: x, y: 0, width: width, height: height)).resized(width: 640, height: 480)
        }
    }
}
