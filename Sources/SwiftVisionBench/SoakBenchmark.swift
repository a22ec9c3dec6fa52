import Foundation
import MLKit
import SwiftVision

/// 10 000 frames (a 120-frame video made from a sample photo, decoded once and looped) through faces
/// with tracking and landmarks in video mode and through objects in stream mode, the resident memory
/// sampled every 500 frames: after the first 1000 frames it must not grow by more than 5 MB.
enum SoakBenchmark {
    /// Frames per soak; `BENCH_SOAK_FRAMES` overrides it for a shorter trial.
    static let frameCount = ProcessInfo.processInfo.environment["BENCH_SOAK_FRAMES"].flatMap { Int($0) } ?? 10_000
    static let sampleInterval = 500
    static let warmUpFrames = 1000
    static let allowedGrowthMB = 5.0

    static func run(cache: SwiftVisionCache) throws {
        let frames = try FaceBenchmark.panningFrames(over: try VisionImage(contentsOfFile: cache.sample(named: "zidane.jpg").path))
        print("\nSoak — \(frameCount) frames (\(frames.count) frames of 640×480 looped), 1 thread; RSS in MB every \(sampleInterval) frames")
        HostLoad.shared.beginTable()
        let faces = try FaceBenchmark.detector(.fast, landmarks: true, tracking: true)
        try soak("faces, tracking + landmarks (video mode)", frames: frames) { index, frame in
            _ = try faces.results(inVideoFrame: frame.mlKitImage, timestampInMilliseconds: index * 33)
        }
        let options = ObjectDetectorOptions()
        options.detectorMode = .stream
        options.threadCount = 1
        options.shouldEnableMultipleObjects = true
        let objects = ObjectDetector.objectDetector(options: options)
        try soak("objects, stream mode", frames: frames) { index, frame in
            _ = try objects.results(inVideoFrame: frame.mlKitImage, timestampInMilliseconds: index * 33)
        }
    }

    /// Runs `body` on `frameCount` frames, printing the RSS samples and the growth after the warm-up.
    static func soak(_ label: String, frames: [VisionImage], body: (Int, VisionImage) throws -> Void) throws {
        var samples: [Double] = []
        let clock = ContinuousClock()
        let start = clock.now
        for index in 0..<frameCount {
            try body(index, frames[index % frames.count])
            if (index + 1).isMultiple(of: sampleInterval) {
                samples.append(memoryMiB("VmRSS", process: "self") * 1.048_576)
            }
        }
        let seconds = (clock.now - start).inMilliseconds / 1000
        print("\(label): \(frameCount) frames in \(String(format: "%.0f", seconds)) s")
        print("  RSS MB: " + samples.map { String(format: "%.1f", $0) }.joined(separator: " "))
        let baselineIndex = warmUpFrames / sampleInterval - 1
        guard samples.count > baselineIndex + 1, let last = samples.last else {
            print("  growth after warm-up: - (fewer than \(warmUpFrames + sampleInterval) frames)")
            return
        }
        let growth = last - samples[baselineIndex]
        print(String(format: "  growth after warm-up (frames %d → %d): %+.1f MB, limit %.0f MB: ", warmUpFrames, samples.count * sampleInterval,
                     growth, allowedGrowthMB) + (growth <= allowedGrowthMB ? "ok" : "OVER"))
    }
}
