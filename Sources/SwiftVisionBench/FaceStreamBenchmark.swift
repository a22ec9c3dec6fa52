import Foundation
import SwiftVision

/// The faces live stream against MediaPipe Python's live-stream FaceDetector: the frames of one
/// 640×480 video, decoded once by OpenCV on each side, sent at a fixed period for a fixed time,
/// timestamps 1 ms apart; results/s and call → result latency.
enum FaceStreamBenchmark {
    static let streamSeconds = 6.0
    /// Producer periods in ms: a 30 fps camera, and a producer faster than the model.
    static let periods = [33, 5]

    static func run(cache: SwiftVisionCache, video: URL) throws {
        let frames = try VideoReader(url: video).map(\.image)
        print("\nFaces live stream — \(frames.count) frames of 640×480 in a loop, \(Int(streamSeconds)) s per row, 1 thread")
        print("peer: MediaPipe 0.10.21 Tasks FaceDetector, LIVE_STREAM, the same face_detection_short_range.tflite")
        print("short-range detection on every frame (faces task: fast, tracking off); latency: call → result")
        print("not quite the same work: ours also checks each detection under the sure score (0.85) with the face mesh and, if it"
            + " fits, a second look; MediaPipe reports it as it is. Over half its detections in these frames score under 0.85")
        let comparison = LiveStreamComparison(
            seconds: streamSeconds, periods: periods, peerGraceSeconds: 20, python: cache.root.appendingPathComponent("tools-venv/bin/python"),
            peerScript: "mediapipe_face_stream_peer.py")
        try comparison.run { period in
            try streamOurs(frames: frames, period: period, tracking: false)
        } peerArguments: { period in
            [video.path, "\(streamSeconds)", "\(period)"]
        }
        print("ours only — the web page's stream (tracking IDs; the mesh follows each face, detection every 5th frame):")
        for period in periods {
            print(try streamOurs(frames: frames, period: period, tracking: true).line(named: "SwiftVision tracked, \(period) ms"))
        }
    }

    static func streamOurs(frames: [VisionImage], period: Int, tracking: Bool) throws -> StreamReport {
        var options = FacesTask.Options()
        options.fast = true
        options.tracking = tracking
        options.threads = 1
        let deliveries = Deliveries()
        let runner = try TaskRunner<FacesTask>(options: options, runningMode: .liveStream) { result in
            if case .success = result.result { deliveries.note(result.timestampInMilliseconds) }
        }
        defer { runner.close() }
        return try LiveStreamComparison.drive(seconds: streamSeconds, period: period, deliveries: deliveries) { index in
            try runner.send(frames[index % frames.count], timestampInMilliseconds: index)
        }
    }
}
