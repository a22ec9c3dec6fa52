import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct DrawingTests {
    @Test func drawsShapesAndLabelsInUprightPixels() throws {
        let black = try VisionImage(pixels: Data(count: 200 * 100 * 3), width: 200, height: 100, format: .rgb, orientation: .right)
        var canvas = try ImageCanvas(image: black)
        #expect((canvas.image.width, canvas.image.height) == (100, 200))
        try canvas.drawRectangle(CGRect(x: 10, y: 20, width: 50, height: 60), color: .red, lineWidth: 3)
        try canvas.drawQuadrilateral(Quadrilateral(rect: CGRect(x: 5, y: 120, width: 80, height: 60)), color: .green, lineWidth: 2)
        try canvas.drawPoints([CGPoint(x: 90, y: 190)], radius: 3, color: .blue)
        try canvas.drawLabel("face 0.98", at: CGPoint(x: 10, y: 20), color: .red)
        let pixels = canvas.image.buffer
        #expect(Fixtures.pixel(pixels, 10, 50) == [40, 40, 230])  // left edge of the box, BGR
        #expect(Fixtures.pixel(pixels, 35, 50) == [0, 0, 0])  // inside stays untouched
        #expect(Fixtures.pixel(pixels, 45, 120) == [70, 200, 40])  // top edge of the quadrilateral
        #expect(Fixtures.pixel(pixels, 90, 190) == [240, 110, 40])
        // The label band sits above the box's top-left corner and holds white text.
        let band = (0..<20).flatMap { y in (10..<60).map { Fixtures.pixel(pixels, $0, y) } }
        #expect(band.contains { $0.allSatisfy { $0 > 200 } })
        #expect(band.contains([40, 40, 230]))

        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("annotated.png")
        try canvas.image.write(to: png)
        #expect(try VisionImage(contentsOf: png).buffer == pixels)
        let jpeg = folder.appendingPathComponent("annotated.jpg")
        try canvas.image.write(to: jpeg)
        #expect(try Fixtures.meanDifference(try VisionImage(contentsOf: jpeg).buffer, pixels) < 4)
        #expect(throws: ImageError.self) { try canvas.image.write(to: folder.appendingPathComponent("annotated.gif")) }
        // A folder that does not exist: an error about writing the file, not reading it.
        let nowhere = folder.appendingPathComponent("missing/annotated.png")
        do {
            try canvas.image.write(to: nowhere)
            Issue.record("wrote into a missing folder")
        } catch let error as ImageError {
            guard case .unwritableFile(let path, _) = error else { throw error }
            #expect(path == nowhere.path && error.description.hasPrefix("cannot write image file \(nowhere.path): "))
        }
    }

    @Test func drawsOnRealPhotos() throws {
        var canvas = try ImageCanvas(image: try Fixtures.image("bus.jpg"))
        let before = canvas.image.buffer
        try canvas.drawPolyline([CGPoint(x: 0, y: 0), CGPoint(x: 809, y: 1079)], closed: false, color: .yellow, lineWidth: 8)
        #expect(canvas.image.buffer != before)
        #expect(Fixtures.pixel(canvas.image.buffer, 405, 540) == [30, 210, 250])
    }
}
