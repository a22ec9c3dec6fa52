import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct BadInputTests {
    @Test func emptyAndUnknownData() throws {
        #expect(throws: ImageError.emptyData) { try VisionImage(data: Data()) }
        #expect(throws: ImageError.unknownFormat) { try VisionImage(data: Data("plain text, more bytes".utf8)) }
        // A document recognised by its signature is named: PDF 1.7 (ISO 32000-1, 7.5.2) opens with "%PDF-".
        #expect(throws: ImageError.unsupportedFormat(.pdf)) { try VisionImage(data: Data("%PDF-1.7 plus more bytes".utf8)) }
        // A GIF signature before bytes that are no GIF: refused by what its header says, before any decoding.
        #expect(throws: ImageError.self) { try VisionImage(data: Data("GIF89a plus more bytes".utf8)) }
        #expect(throws: ImageError.unknownFormat) { try VisionImage(data: Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7) })) }
        let missing = URL(fileURLWithPath: "/nonexistent/photo.jpg")
        #expect(throws: ImageError.self) { try VisionImage(contentsOf: missing) }
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let zero = folder.appendingPathComponent("zero.jpg")
        try Data().write(to: zero)
        #expect(throws: ImageError.emptyData) { try VisionImage(contentsOf: zero) }
    }

    @Test(arguments: ["bus.jpg", "astronaut.png"])
    func truncatedFilesAreRefused(name: String) throws {
        let data = try Data(contentsOf: try Fixtures.sample(name))
        for fraction in [0.01, 0.3, 0.6, 0.99] {
            let cut = data.prefix(Int(Double(data.count) * fraction))
            let error = #expect(throws: ImageError.self) { try VisionImage(data: cut) }
            #expect(error?.description.contains("truncated") == true, "\(String(describing: error))")
        }
    }

    @Test func corruptPixelDataNeverCrashes() throws {
        for name in ["bus.jpg", "chelsea.png"] {
            var data = try Data(contentsOf: try Fixtures.sample(name))
            for index in stride(from: data.count / 3, to: data.count - 16, by: 97) { data[index] ^= 0x5A }
            do {
                let image = try VisionImage(data: data)
                #expect(image.width > 0)
            } catch let error as ImageError {
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test func giganticImagesAreRefusedBeforeAllocating() throws {
        let huge = BadInputs.pngClaiming(width: 30000, height: 30000)
        #expect(throws: ImageError.tooLarge(width: 30000, height: 30000, maximumPixelCount: 100_000_000)) {
            try VisionImage(data: huge)
        }
        // A JPEG frame header claiming 30000×30000.
        var jpeg = Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x75, 0x30, 0x75, 0x30, 0x03])
        jpeg += Data(repeating: 0x11, count: 9) + Data([0xFF, 0xD9])
        #expect(throws: ImageError.tooLarge(width: 30000, height: 30000, maximumPixelCount: 100_000_000)) {
            try VisionImage(data: jpeg)
        }
        // A restart marker (which stands alone) followed by stray bytes that hide a 30000×30000 frame
        // header from a parser that reads a length after every marker: libjpeg skips the stray bytes,
        // finds that header and would allocate for it, so the header parser must find it too.
        let small = try Fixtures.image("coffee.png").resized(width: 10, height: 10).encoded(as: .jpeg(quality: 90))
        var disguised = Data([0xFF, 0xD8, 0xFF, 0xD0, 0x00, 0x0F])
        disguised += Data([0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x75, 0x30, 0x75, 0x30, 0x01, 0x01, 0x11, 0x00])
        disguised += small.dropFirst(2)
        let header = try ImageHeader(data: disguised)
        #expect((header.width, header.height) == (30000, 30000), "the frame header libjpeg reads first")
        #expect(throws: ImageError.tooLarge(width: 30000, height: 30000, maximumPixelCount: 100_000_000)) {
            try VisionImage(data: disguised)
        }
        let tight = ImageDecodingOptions(limits: ImageLimits(maximumPixelCount: 1000))
        #expect(throws: ImageError.self) { try VisionImage(contentsOf: try Fixtures.sample("bus.jpg"), options: tight) }
        #expect(throws: ImageError.self) { try Fixtures.image("bus.jpg").resized(width: 40000, height: 40000) }
        #expect(throws: ImageError.self) { try VisionImage(data: BadInputs.pngClaiming(width: 0, height: 10)) }
    }

    @Test func badRegionsAreRefused() throws {
        let photo = try Fixtures.image("coffee.png")
        #expect(throws: ImageError.self) { try photo.cropped(to: CGRect(x: 600, y: 400, width: 10, height: 10)) }
        #expect(throws: ImageError.self) { try photo.cropped(to: .null) }
        let clipped = try photo.cropped(to: CGRect(x: -50, y: -50, width: 100, height: 100))
        #expect((clipped.width, clipped.height) == (50, 50))
    }
}
