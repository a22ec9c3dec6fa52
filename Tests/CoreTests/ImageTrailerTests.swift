import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore

/// Phones write data after a photo's end: a Google or Samsung motion photo is the JPEG followed by an MP4
/// of the moments around it (Google's Motion Photo format 1.0), Samsung appends its own trailer, and an
/// Ultra HDR photo is followed by its gain map, a second JPEG (the CIPA Multi-Picture Format). The photo is
/// the image up to its first end marker, as every decoder reads it; the truth is the same photo's file
/// without what follows. A file cut short inside the photo itself stays an error.
@Suite struct ImageTrailerTests {
    /// An MP4 of real photos, as a motion photo carries after its still.
    static func clip(in folder: URL) throws -> Data {
        let url = folder.appendingPathComponent("motion.mp4")
        let writer = try VideoWriter(url: url, width: 640, height: 360, framesPerSecond: 30)
        for name in ["zidane.jpg", "bus.jpg", "zidane.jpg"] {
            try writer.append(try Fixtures.image(name).resized(width: 640, height: 360))
        }
        writer.close()
        return try Data(contentsOf: url)
    }

    @Test func aPhotoFollowedByAVideoOrAGainMapIsThePhoto() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.clip(in: folder)
        let gainMap = try Data(contentsOf: try Fixtures.sample("bus.jpg"))
        let photo = try Data(contentsOf: try Fixtures.sample("zidane.jpg"))
        let turned = try Fixtures.jpeg(storing: try VisionImage(data: photo), orientation: .right)
        let samsungTrailer = Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 37) }) + Data("SEFT".utf8)
        for (name, still) in [("zidane.jpg", photo), ("turned", turned)] {
            let expected = try VisionImage(data: still)
            for (kind, trailer) in [("video", video), ("gain map", gainMap), ("trailer", samsungTrailer)] {
                let data = still + trailer
                let header = try ImageHeader(data: data)
                #expect(header == (try ImageHeader(data: still)), "\(name) + \(kind)")
                let image = try VisionImage(data: data)
                #expect(image.orientation == expected.orientation, "\(name) + \(kind)")
                #expect(image.buffer.bytes == expected.buffer.bytes, "\(name) + \(kind)")
                // Cut inside the photo's own data: truncated, whatever the trailer held.
                #expect(throws: ImageError.truncated(.jpeg), "\(name) + \(kind) cut short") {
                    try ImageHeader(data: data.prefix(still.count * 2 / 3))
                }
            }
        }
    }

    @Test func aPNGWithBytesAfterItsEndIsThePNG() throws {
        let png = try Data(contentsOf: try Fixtures.sample("chelsea.png"))
        let expected = try VisionImage(data: png)
        let image = try VisionImage(data: png + Data([0, 0, 0, 0, 0x0A]))
        #expect(image.buffer.bytes == expected.buffer.bytes)
        for cut in [png.count / 2, png.count - 6] {
            #expect(throws: ImageError.truncated(.png), "cut at \(cut) of \(png.count)") { try ImageHeader(data: png.prefix(cut)) }
        }
    }
}
