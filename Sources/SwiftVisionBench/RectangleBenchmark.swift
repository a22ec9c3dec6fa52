import Foundation
import SwiftVision

/// The rectangles section of `make bench`: `RectangleDetector` with Vision's default options
/// beside the standard document-scanner pipeline in OpenCV (Tests/Python/Reference/rectangles_reference.py:
/// blur, Canny, outer contours, `approxPolyDP`, convex four-gons, largest first), kept running, its runs
/// and ours alternating one by one on the same decoded image, both pinned to one CPU.
///
/// The images: bus.jpg rescaled to 1, 4 and 12 megapixels (written as PNG, so that both sides decode the
/// same pixels), the sample photos with hand-marked corners (RectanglePhotoTests) and the scenes drawn
/// by Tests/Python/Reference/vision_fixtures.py (RectangleDetectionTests); then the 30 MIDV-500 frames of
/// `make eval` (eval/data/rectangles, published corners), a row each and a summary of their ratios. Each row
/// says how far our best rectangle's corners lie from the peer's largest.
enum RectangleBenchmark {
    /// Runs a side, ours and the peer's in turns.
    static let iterations = 10
    static let photos = ["box.png", "singlemarkersoriginal.jpg", "sudoku.png"]
    static let scenes = ["page-on-bus.jpg", "card-on-horses.jpg", "screen-on-zidane.jpg", "page-uneven-light.jpg", "cards-on-dog.jpg"]

    /// The peer's answer: its time, how many four-gons it found and the largest one's corners.
    struct PeerRectangles: TimedPeerAnswer {
        var ms: Double
        var count: Int
        var corners: [[Double]]?
    }

    /// The peer's first line.
    struct Greeting: Decodable {
        var opencvVersion: String

        enum CodingKeys: String, CodingKey {
            case opencvVersion = "opencv_version"
        }
    }

    static func run(cache: SwiftVisionCache) throws {
        let python = cache.root.appendingPathComponent("venv/bin/python")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-bench-rectangles-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let busPhoto = try VisionImage(contentsOf: cache.sample(named: "bus.jpg"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var paths: [String] = []
        for megapixels in [1.0, 4, 12] {
            let scale = (megapixels * 1_000_000 / Double(busPhoto.width * busPhoto.height)).squareRoot()
            let (width, height) = (Int(Double(busPhoto.width) * scale), Int(Double(busPhoto.height) * scale))
            let url = folder.appendingPathComponent("bus-\(width)x\(height).png")
            try busPhoto.resized(width: width, height: height).write(to: url)
            paths.append(url.path)
        }
        paths += photos.map { cache.sample(named: $0).path }
        let built = try PeerProcess.run(
            python: python, script: "../Tests/Python/Reference/vision_fixtures.py",
            arguments: ["rectangles", folder.appendingPathComponent("scenes").path, cache.samples.path],
            as: [RecognitionBenchmark.Scene].self)
        paths += scenes.compactMap { name in built.first { $0.file.hasSuffix("/" + name) }?.file }

        try CPUAffinity.onOneCPU { cpu in
            let peer = try PeerSession(python: python, script: "../Tests/Python/Reference/rectangles_reference.py", arguments: ["--serve"])
            let greeting = try peer.line(as: Greeting.self)
            print("\nRectangles — median of \(iterations) runs a side on decoded images, 1 thread; RectangleDetector, Vision's defaults")
            print("peer: OpenCV \(greeting.opencvVersion) document-scanner pipeline (Tests/Python/Reference/rectangles_reference.py: 5×5 blur,")
            print("       Canny 50/150, outer contours, approxPolyDP 2 %, convex four-gons, largest first), same decoded image,")
            print("       kept running: its runs and ours alternate one by one, each side first in every other turn"
                + (cpu.map { ", both pinned to CPU \($0.number)" } ?? ""))
            print("corners: the largest distance between our best rectangle's corners and the peer's largest's")
            BenchmarkRow.printHeader()
            let detector = RectangleDetector()
            for path in paths { print(try row(for: path, detector: detector, peer: peer).line) }
            let frames = try evalFrames()
            guard !frames.isEmpty else { return }
            print("the eval set: MIDV-500 frames of `make eval` (eval/data/rectangles)")
            var ratios: [Double] = []
            var busy = false
            for path in frames {
                let row = try row(for: path, detector: detector, peer: peer)
                print(row.line)
                busy = busy || row.ratio == nil
                if let ratio = row.ratio { ratios.append(ratio) }
            }
            print(busy
                ? "eval set: \(frames.count) frames, busy (no ratio printed)"
                : String(
                    format: "eval set: %d frames, ratio to the peer median %.2f, largest %.2f; %d of %d slower than 2× the peer",
                    frames.count, ratios.percentile(0.5), ratios.max() ?? 0, ratios.filter { $0 > 2 }.count, ratios.count))
        }
    }

    /// The JPEG frames of `make eval`'s rectangles section, from the repository this bench is built in.
    private static func evalFrames() throws -> [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("eval/data/rectangles")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".jpg") }.sorted().map { folder.appendingPathComponent($0).path }
    }

    /// The row of the image at `path`: ours and the peer's timed in turns, and how far apart the corners are;
    /// with the ratio of the times, nil when the row is busy.
    private static func row(for path: String, detector: RectangleDetector, peer: PeerSession) throws -> (line: String, ratio: Double?) {
        let image = try VisionImage(contentsOfFile: path)
        var best: DetectedRectangle?
        let turns = try peer.turns(iterations: iterations, request: "find \(path)", as: PeerRectangles.self) {
            best = try detector.results(in: image).first
        }
        let name = "rectangles \(URL(fileURLWithPath: path).lastPathComponent) \(image.width)×\(image.height)"
        let corners: String
        switch (best, turns.answer.corners) {
        case let (best?, peerCorners?):
            let points = peerCorners.map { CGPoint(x: $0[0], y: $0[1]) }
            let theirs = Quadrilateral(topLeft: points[0], topRight: points[1], bottomRight: points[2], bottomLeft: points[3])
            corners = String(format: " corners within %.1f px", best.corners.largestCornerDistance(to: theirs))
        case (nil, nil): corners = " neither finds one"
        case (nil, _): corners = " only the peer finds one"
        case (_, nil): corners = " the peer finds none"
        }
        let row = BenchmarkRow(task: name, swift: turns.time, peer: turns.peerTime, peakMiB: peakResidentMiB())
        return (row.line + corners, row.busy ? nil : row.peer.map { row.swift / $0 })
    }
}
