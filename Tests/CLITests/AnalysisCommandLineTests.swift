import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct AnalysisCommandLineTests {
    static let executable = Fixtures.executable

    @Test func rectanglesPrintsCornersDrawsAndCorrects() throws {
        let scene = try VisionFixtures.scene("page-on-bus.jpg", in: VisionFixtures.rectangles, file: \.file)
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.jpg")
        try Data("no picture".utf8).write(to: broken)
        let drawn = folder.appendingPathComponent("drawn")
        let corrected = folder.appendingPathComponent("pages")
        let run = try Fixtures.run(
            Self.executable,
            ["rectangles", "--json", "--max", "2", "--draw", drawn.path, "--correct", corrected.path, scene.file, broken.path])
        #expect(run.status == 1)
        let lines = Fixtures.jsonLines(run.output)
        try #require(lines.count == 2)
        #expect(lines[0]["file"] as? String == scene.file)
        let rectangles = try #require(lines[0]["rectangles"] as? [[String: Any]])
        #expect((1...2).contains(rectangles.count))
        let topLeft = try #require(rectangles.first?["topLeft"] as? [String: Double])
        #expect(abs(topLeft["x"]! - scene.rectangles[0][0][0]) < 1.5 && abs(topLeft["y"]! - scene.rectangles[0][0][1]) < 1.5)
        #expect(rectangles.first?["confidence"] is Double && rectangles.first?["bottomRight"] != nil)
        #expect(lines[1]["file"] as? String == broken.path && (lines[1]["error"] as? String)?.contains("not an image") == true)

        let drawing = try VisionImage(contentsOf: drawn.appendingPathComponent("page-on-bus.png"))
        #expect(drawing.size == (try VisionImage(contentsOfFile: scene.file)).size)
        // The confidence's label sits on the top-left corner: white text on the outline's colour, so
        // the 40×14 pixels above and right of the corner have changed from the photo's.
        let photo = try VisionImage(contentsOfFile: scene.file).buffer
        let (cornerX, cornerY) = (Int(topLeft["x"]!), Int(topLeft["y"]!))
        let changed = (cornerX..<cornerX + 40).flatMap { x in (cornerY - 14..<cornerY).map { (x, $0) } }
            .filter { Fixtures.pixel(drawing.buffer, $0.0, $0.1) != Fixtures.pixel(photo, $0.0, $0.1) }
        #expect(changed.count > 300, "\(changed.count) of 560 pixels of the label changed")
        let page = try VisionImage(contentsOf: corrected.appendingPathComponent("page-on-bus.png"))
        #expect(page.width > page.height && page.width > 400)
    }

    @Test func barcodesPrintsFormatsTextsAndCorners() throws {
        let scene = try VisionFixtures.scene("several-on-bus.jpg", in: VisionFixtures.barcodes, file: \.file)
        let run = try Fixtures.run(Self.executable, ["barcodes", "--json", "--formats", "QRCode,EAN13", scene.file])
        #expect(run.status == 0, "\(run.errors)")
        let codes = try #require(Fixtures.jsonLines(run.output).first?["barcodes"] as? [[String: Any]])
        #expect(Set(codes.compactMap { $0["format"] as? String }) == ["QRCode", "EAN13"])
        #expect(codes.contains { $0["text"] as? String == "4006381333931" })
        #expect(codes.allSatisfy { ($0["corners"] as? [[String: Double]])?.count == 4 })
        let unknown = try Fixtures.run(Self.executable, ["barcodes", "--formats", "Telepen", scene.file])
        #expect(unknown.status != 0 && unknown.errors.contains("unknown barcode format"))
    }

    @Test func textPrintsThePageAndItsBlocks() throws {
        let scene = try VisionFixtures.scene("paragraph.png", in: VisionFixtures.text, file: \.file)
        let run = try Fixtures.run(Self.executable, ["text", "--json", "--lang", "eng", scene.file])
        #expect(run.status == 0, "\(run.errors)")
        let report = try #require(Fixtures.jsonLines(run.output).first)
        #expect((report["text"] as? String)?.hasPrefix("The quick brown fox jumps over the lazy dog\n") == true)
        let blocks = try #require(report["blocks"] as? [[String: Any]])
        let lines = blocks.flatMap { ($0["lines"] as? [[String: Any]]) ?? [] }
        #expect(lines.count == 4)
        let words = try #require(lines.first?["words"] as? [[String: Any]])
        let frame = try #require(words.first?["frame"] as? [String: Double])
        #expect(words.first?["text"] as? String == "The" && frame["x"]! > 30 && frame["width"]! > 20)
        let missing = try Fixtures.run(Self.executable, ["text", "--lang", "tlh", scene.file])
        #expect(missing.status != 0 && missing.errors.contains("tlh"))
    }
}
