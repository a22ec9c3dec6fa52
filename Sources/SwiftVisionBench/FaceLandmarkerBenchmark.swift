import Foundation
import SwiftVision

/// Faces with their 468 mesh points, like for like against MediaPipe Python's FaceLandmarker (Tasks API): both
/// sides run the short-range BlazeFace and the face mesh from the same files (`mediapipe_face_landmarker_peer.py`
/// bundles them as MediaPipe's `face_landmarker.task`), on one CPU, one thread. Per photo, the peer is kept running
/// and its calls alternate with ours one by one; per video frame, each side's pass over all the frames (video
/// mode, one face, the mesh following it from frame to frame) alternates with the others'. Ours runs twice: with the
/// mesh only, FaceLandmarker's work, and with the landmarks too (the irises). Each row adds how far
/// our mesh points lie from the peer's: the median distance over every point of the faces both sides find.
enum FaceLandmarkerBenchmark {
    /// The sample photos where the short-range detector finds faces: one close face, one face, four small faces.
    static let photos = ["astronaut.png", "face_swapped.jpg", "facereg.jpg"]
    /// Runs a side on each photo, ours and the peer's in turns.
    static let iterations = 20
    /// Passes over the video a side, the sides in turns.
    static let videoPasses = 3
    /// Frames left out at the start of each pass, as the peer does (its graph's start, our first detection).
    static let warmUpFrames = 5

    static func run(cache: SwiftVisionCache) throws {
        let paths = photos.map { cache.sample(named: $0).path }
        let images = try paths.map { try VisionImage(contentsOfFile: $0) }
        // A window of 384×288 panning across astronaut.png, shown at 640×480: the face fills a fifth of the frame.
        let astronaut = try VisionImage(contentsOfFile: cache.sample(named: "astronaut.png").path)
        let frames = try FaceBenchmark.panningFrames(over: astronaut, width: 384, height: 288)
        let video = try FaceBenchmark.writeVideo(frames, named: "face-landmarker")
        defer { try? FileManager.default.removeItem(at: video) }
        // Ours reads the frames as the peer does: decoded from the video by OpenCV.
        let decoded = try VideoReader(url: video).map(\.image)
        try CPUAffinity.onOneCPU { cpu in
            let (peer, mediapipe) = try PeerSession.mediaPipe(script: "mediapipe_face_landmarker_peer.py", cache: cache)
            print("\nFaces + 468-point mesh — like for like: MediaPipe \(mediapipe) Python Tasks FaceLandmarker,"
                + " face_landmarker.task bundled from the same face_detection_short_range.tflite and face_landmark.tflite")
            print("       ours: the faces task, fast (short range), mesh on, landmarks and contours off; 1 LiteRT/XNNPACK thread a side"
                + (cpu.map { ", both pinned to CPU \($0.number)" } ?? ""))
            print("       photos: median of \(iterations) calls a side, in turns, each side first in every other turn"
                + " (20 faces at most); video: \(frames.count) frames of 640×480 (astronaut.png panned), video mode, 1 face,")
            print("       \(videoPasses) passes a side in turns, each side first in one, the first \(warmUpFrames) frames of each"
                + " left out; Δ: median distance of the 468 points from the peer's, over the faces both find")
            print("       \"+ irises\": ours with landmarks on, which adds 2 invokes of iris_landmark.tflite a face"
                + " (the eyes at the pupils); the peer's mesh has 10 more outputs (its bundle's note)")
            BenchmarkRow.printHeader()
            let photoRunners = try [false, true].map { irises in
                try TaskRunner<FacesTask>(options: options(maximumFaces: 20, irises: irises))
            }
            for ((name, path), image) in zip(zip(photos, paths), images) {
                let theirs = try peer.answer(to: "points \(path)", as: PeerPoints.self).faces
                for (runner, label) in zip(photoRunners, ["faces + mesh", "faces + mesh + irises"]) {
                    let turns = try peer.turns(iterations: iterations, request: "image \(path)", as: PeerCount.self) {
                        _ = try runner.run(image)
                    }
                    let ours = try runner.run(image).faces.compactMap(\.mesh)
                    let row = BenchmarkRow(task: "\(name) \(label)", swift: turns.time, peer: turns.peerTime, peakMiB: peakResidentMiB())
                    print(row.line + " faces \(ours.count) vs \(turns.answer.count)" + agreement(ours: [ours], theirs: [theirs]))
                }
            }
            // Each pass: the peer's, ours with the mesh, ours with the irises too, each first in every third pass.
            var samples = [[Double]](repeating: [], count: 3)
            var found = [[[[Landmark]]]](repeating: [], count: 2)
            var theirs: [[[[Double]]]] = []
            for pass in 0..<videoPasses {
                for step in 0..<3 {
                    let side = (pass + step) % 3
                    guard side > 0 else {
                        let answer = try peer.answer(to: "video \(video.path)", as: PeerVideo.self)
                        samples[0] += answer.samples
                        theirs = answer.frames
                        continue
                    }
                    let pass = try videoPass(over: decoded, irises: side == 2)
                    samples[side] += pass.samples
                    found[side - 1] = pass.meshes
                }
            }
            let peerTracked = theirs.filter { !$0.isEmpty }.count
            for (side, label) in [(1, "video 640×480 per frame, mesh"), (2, "video per frame, mesh + irises")] {
                let row = BenchmarkRow(
                    task: label, swift: Timing(samples: samples[side]), peer: Timing(samples: samples[0]), peakMiB: peakResidentMiB())
                let tracked = found[side - 1].filter { !$0.isEmpty }.count
                print(row.line + " frames with a face \(tracked) vs \(peerTracked)" + agreement(ours: found[side - 1], theirs: theirs))
            }
        }
    }

    /// Our pass over `frames` in video mode (1 face): the time of each frame after ``warmUpFrames``, and the
    /// mesh of each face of every frame.
    static func videoPass(over frames: [VisionImage], irises: Bool) throws -> (samples: [Double], meshes: [[[Landmark]]]) {
        let runner = try TaskRunner<FacesTask>(options: options(maximumFaces: 1, irises: irises), runningMode: .video)
        let clock = ContinuousClock()
        var samples: [Double] = []
        var meshes: [[[Landmark]]] = []
        for (index, frame) in frames.enumerated() {
            var faces: [[Landmark]] = []
            let ms = try clock.measure {
                faces = try runner.run(videoFrame: frame, timestampInMilliseconds: index * 33).faces.compactMap(\.mesh)
            }.inMilliseconds
            if index >= warmUpFrames { samples.append(ms) }
            meshes.append(faces)
        }
        return (samples, meshes)
    }

    /// The faces task as FaceLandmarker runs: the short-range detector on the whole image, then the mesh; with
    /// `irises`, the landmarks too (eyes at the pupils, from the iris model).
    static func options(maximumFaces: Int, irises: Bool) -> FacesTask.Options {
        var options = FacesTask.Options()
        options.fast = true
        options.mesh = true
        options.landmarks = irises
        options.contours = false
        options.minFaceSize = 0
        options.maxFaces = maximumFaces
        options.threads = 1
        return options
    }

    /// ", mesh Δ 0.21 px (5 faces)": the median distance between our mesh points and the peer's, over the faces
    /// both sides find in the same image (each of the peer's faces paired with ours nearest to it).
    static func agreement(ours: [[[Landmark]]], theirs: [[[[Double]]]]) -> String {
        var distances: [Double] = []
        var paired = 0
        for (our, their) in zip(ours, theirs) {
            for face in their {
                let points = face.map { CGPoint(x: $0[0], y: $0[1]) }
                let center = points.centroid
                func offset(_ mesh: [Landmark]) -> Double { distance(mesh.map(\.point).centroid, center) }
                guard let nearest = our.min(by: { offset($0) < offset($1) }), nearest.count == points.count
                else { continue }
                paired += 1
                distances += zip(nearest, points).map { distance($0.point, $1) }
            }
        }
        guard !distances.isEmpty else { return ", mesh Δ - (no face on both sides)" }
        return String(format: ", mesh Δ %.2f px (%d faces)", Timing(samples: distances).median, paired)
    }

    /// The peer's mesh points of one photo's faces, in pixels.
    struct PeerPoints: Decodable {
        var faces: [[[Double]]]
    }

    /// The peer's pass over a video: its time per frame (the first frames left out) and the mesh points it found in each.
    struct PeerVideo: Decodable {
        var samples: [Double]
        var frames: [[[[Double]]]]
    }
}

extension [CGPoint] {
    /// The mean of the points.
    fileprivate var centroid: CGPoint {
        CGPoint(x: map(\.x).reduce(0, +) / Double(count), y: map(\.y).reduce(0, +) / Double(count))
    }
}

/// The distance between two points.
private func distance(_ a: CGPoint, _ b: CGPoint) -> Double {
    hypot(a.x - b.x, a.y - b.y)
}
