import Foundation
import SwiftVisionCore

/// Inputs with known faults, shared by the command line's and the service's bad-input sweeps
/// (issue 17): each is built here from good files and a seeded generator, so a failure can be run again.
public enum BadInputs {
    /// Files that are not a decodable image (or video), by name: empty, cut in half (JPEG, PNG, WebP),
    /// a text file named `.png`, 4096 random bytes named `.mp4`, and a PNG whose header claims
    /// 100000×100000. `jpeg`, `png` and `webp` are good files to cut.
    public static func corruptFiles(jpeg: Data, png: Data, webp: Data, seed: UInt64) -> [(name: String, data: Data)] {
        var random = SeededGenerator(seed: seed)
        return [
            ("empty.jpg", Data()), ("cut.jpg", jpeg.prefix(jpeg.count / 2)), ("cut.png", png.prefix(png.count / 2)),
            ("cut.webp", webp.prefix(webp.count / 2)), ("text.png", Data("this is a text file, not a picture\n".utf8)),
            ("random.mp4", Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) })),
            ("bomb.png", pngClaiming(width: 100_000, height: 100_000)),
        ]
    }

    /// Valid PNGs of extreme sizes, 1×1 and 20000×20, of seeded random pixels, by name.
    public static func extremeImages(seed: UInt64) throws -> [(name: String, data: Data)] {
        var random = SeededGenerator(seed: seed)
        return try [("one.png", 1, 1), ("wide.png", 20000, 20)].map { name, width, height in
            let pixels = (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &random) }
            let image = try VisionImage(buffer: PixelBuffer(format: .rgb, width: width, height: height, bytes: pixels))
            return (name, try image.encoded(as: .png))
        }
    }

    /// `data` with 300 bytes in the middle inverted bit by bit (XOR 0x55): for a PNG, bytes of its image
    /// data, whose checksum then fails; for a JPEG, bytes of its scan, which libjpeg decodes with a warning.
    public static func damagedInTheMiddle(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        for index in bytes.count / 2..<min(bytes.count, bytes.count / 2 + 300) { bytes[index] ^= 0x55 }
        return Data(bytes)
    }

    /// A PNG signature and header chunk claiming `width`×`height` RGB, then an empty end: no pixels.
    public static func pngClaiming(width: UInt32, height: UInt32) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8))
        for value in [width, height] { data += withUnsafeBytes(of: value.bigEndian) { Data($0) } }
        data += Data([8, 2, 0, 0, 0, 0, 0, 0, 0])
        data += Data([0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])
        return data
    }
}
