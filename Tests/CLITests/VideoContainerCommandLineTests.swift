import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore

/// Videos come in more containers than phones' MP4 and MOV: camcorders write AVCHD's `.MTS` (an MPEG
/// transport stream), Blu-ray and some cameras `.m2ts`, older phones `.3gp`, screen recorders `.ts`, and
/// files lose their extension on the way (a chat app's download). Each is read frame by frame, as FFmpeg
/// reads it; the truth is the frames OpenCV's own reader gets from the same file
/// (Tests/Python/Reference/video_containers.py) and the label of the photo the frames show (scikit-image's
/// coffee.png, ImageNet's espresso, 967).
@Suite struct VideoContainerCommandLineTests {
    static let executable = Fixtures.executable

    @Test func everyContainerIsReadFrameByFrameWhateverItsName() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Fixtures.sample("coffee.png")
        let manifest = try JSONSerialization.jsonObject(
            with: try Fixtures.referenceOutput("video_containers.py", [folder.path, photo.path, "2"])) as? [[String: Any]] ?? []
        var expected = Dictionary(uniqueKeysWithValues: manifest.compactMap { entry in
            (entry["file"] as? String).map { (folder.appendingPathComponent($0).path, entry["frames"] as? Int ?? -1) }
        })
        try #require(expected.count == 6 && expected.values.allSatisfy { $0 == 2 }, "\(manifest)")
        // Without an extension: a transport stream and an MP4 saved by the writer.
        let unnamed = folder.appendingPathComponent("VID-0001")
        try FileManager.default.copyItem(atPath: folder.appendingPathComponent("clip.ts").path, toPath: unnamed.path)
        let mp4 = folder.appendingPathComponent("clip.mp4")
        let writer = try VideoWriter(url: mp4, width: 600, height: 400, framesPerSecond: 5)
        for _ in 0..<2 { try writer.append(try VisionImage(contentsOf: photo)) }
        writer.close()
        let download = folder.appendingPathComponent("download")
        try FileManager.default.moveItem(at: mp4, to: download)
        expected[unnamed.path] = 2
        expected[download.path] = 2

        let run = try Fixtures.run(Self.executable, ["labels", "--json"] + expected.keys.sorted())
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        var frames: [String: [Int]] = [:]
        for line in lines {
            let file = line["file"] as? String ?? "?"
            #expect(line["error"] == nil, "\(file): \(line["error"] ?? "")")
            #expect((line["labels"] as? [[String: Any]])?.first?["index"] as? Int == 967, "\(file): \(line)")
            frames[file, default: []].append(line["frame"] as? Int ?? -1)
        }
        #expect(frames == expected.mapValues { Array(0..<$0) }, "\(run.output)")

        // A folder lists the containers by extension; `.ts`, which TypeScript shares, counts only when named.
        let listed = try Fixtures.run(Self.executable, ["labels", "--json", folder.path])
        let files = Set(listed.output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["file"] as? String
        })
        let root = folder.path + "/"
        #expect(files == Set(["clip.mts", "clip.m2ts", "clip.3gp", "clip.flv", "clip.wmv"].map { root + $0 }), "\(listed.output)")
    }
}
