import Foundation
import Testing

@testable import SwiftVision

@Suite struct CommandLineTests {
    static let executable = Fixtures.packageRoot.appendingPathComponent(".build/debug/swiftvision")

    @Test func infoPrintsJSONLinesInUprightPixels() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.executable.path), "run `swift build` first")
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let upright = try Fixtures.image("bus.jpg").resized(width: 270, height: 360)
        let stored = try VisionImage(buffer: upright.buffer, orientation: .left).upright()
        let rotated = folder.appendingPathComponent("rotated.jpg")
        try Fixtures.jpeg(storing: stored, orientation: .right).write(to: rotated)

        let run = try Fixtures.run(Self.executable, ["info", "--json", try Fixtures.sample("astronaut.png").path, rotated.path])
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 2)
        #expect(lines[0]?["width"] as? Int == 512 && lines[0]?["format"] as? String == "png")
        #expect(lines[1]?["file"] as? String == rotated.path)
        #expect(lines[1]?["width"] as? Int == 270 && lines[1]?["height"] as? Int == 360)
        #expect(lines[1]?["orientation"] as? Int == 6 && lines[1]?["format"] as? String == "jpeg")
    }

    @Test func infoReportsBadFilesAndFails() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.png")
        try Data("definitely not a picture".utf8).write(to: broken)
        let run = try Fixtures.run(Self.executable, ["info", "--json", broken.path, try Fixtures.sample("dog.jpg").path])
        #expect(run.status == 1)
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains("\"error\"") && lines[0].contains("not an image"))
        #expect(lines[1].contains("\"width\":768"))
    }

    @Test func modelDescribesInstalledModels() throws {
        let run = try Fixtures.run(Self.executable, ["model", "--json", "face_detection_short_range.tflite"])
        #expect(run.status == 0, "\(run.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(object["name"] as? String == "Short Range Face Detection")
        let inputs = try #require(object["inputs"] as? [[String: Any]])
        #expect(inputs.first?["shape"] as? [Int] == [1, 128, 128, 3])
    }
}
