import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVisionCore

/// JPEG, PNG and WebP are decoded by libjpeg-turbo, libpng and libwebp directly (the shim's codecs.cpp),
/// everything else and all video by OpenCV in libSwiftVisionMedia.so, loaded on first use; pixels are processed
/// by OpenCV's core and imgproc in libSwiftVisionImaging.so, also loaded on first use.
@Suite struct ImageCodecTests {
    static let executable = Fixtures.executable

    /// The truth is OpenCV's own `cv2.imread` (the pip wheel, with its own builds of the three libraries) on
    /// the same files: the samples, and variants in the layouts the formats allow (progressive, 4:4:4, gray
    /// and CMYK JPEG; palette, transparency, 1-, 8- and 16-bit gray, 16-bit colour and alpha PNG; lossless,
    /// lossy and alpha WebP; a JPEG damaged in the middle), each JPEG also at the decoder's 1/2, 1/4 and
    /// 1/8 sizes.
    @Test func decodesEveryLayoutToOpenCVsPixels() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let listing = try Self.referenceDecodes("decode_reference.py", into: folder)
        #expect(listing.count == 44)
        for entry in listing {
            let data = try Data(contentsOf: folder.appendingPathComponent(entry.file))
            let header = try ImageHeader(data: data)
            // The decoder shrinks by the largest of 8, 4 and 2 that still covers the minimum size.
            let reduction = entry.reduction ?? 1
            let minimum = CGSize(width: header.width / reduction, height: header.height / reduction)
            let image = try VisionImage(data: data, options: ImageDecodingOptions(minimumSize: reduction > 1 ? minimum : nil))
            #expect((image.width, image.height) == (entry.width, entry.height), "\(entry.file) at 1/\(reduction)")
            try Self.expectSamePixels(image, entry, in: folder, "\(entry.file) at 1/\(reduction)")
        }
    }

    /// HEIF (as iPhones write photos) and AVIF are read through libheif. The truth is libheif's own tools
    /// (Debian's libheif-examples): `heif-enc` makes each file from a PNG — zidane.jpg, an odd-sized crop of it
    /// (chroma planes that do not divide evenly) and the crop with an alpha channel — and `heif-convert` decodes
    /// it to PNG. Ours must give the tool's pixels exactly (alpha dropped, as for PNG and WebP), the upright size
    /// from the header alone, and stay within a lossy codec's reach of the photo (mean difference under 3
    /// levels); a file cut short is a clear error.
    @Test func decodesHEIFAndAVIFAsLibheifsTools() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try VisionImage(contentsOf: try Fixtures.sample("zidane.jpg"))
        let crop = try photo.cropped(to: CGRect(x: 401, y: 99, width: 333, height: 217))
        var sources: [(name: String, png: Data, image: VisionImage)] = [
            ("zidane", try photo.encoded(as: .png), photo), ("crop", try crop.encoded(as: .png), crop),
        ]
        var withAlpha = try crop.buffer.converted(to: .bgra)
        for index in stride(from: 3, to: withAlpha.bytes.count, by: 4) { withAlpha.bytes[index] = UInt8(index / 4 % 251) }
        sources.append(("alpha", try VisionImage(buffer: withAlpha).encoded(as: .png), crop))
        for source in sources {
            let png = folder.appendingPathComponent("\(source.name).png")
            try source.png.write(to: png)
            for format in [ImageFormat.heif, .avif] {
                let encoded = folder.appendingPathComponent("\(source.name).\(format.rawValue)")
                try Fixtures.heifEncoded(png, to: encoded, avif: format == .avif, quality: 90)
                let decodedByTool = folder.appendingPathComponent("\(source.name)-\(format.rawValue)-tool.png")
                let converted = try Fixtures.run(URL(fileURLWithPath: "/usr/bin/heif-convert"), [encoded.path, decodedByTool.path], timeout: 120)
                try #require(converted.status == 0, "heif-convert: \(converted.errors)")

                let data = try Data(contentsOf: encoded)
                let header = try ImageHeader(data: data)
                #expect(header.format == format && (header.width, header.height) == (source.image.width, source.image.height))
                let image = try VisionImage(data: data)
                let expected = try Fixtures.packed(try VisionImage(contentsOf: decodedByTool).buffer)
                let decoded = try Fixtures.packed(image.buffer)
                Self.expectSamePixels(decoded, expected, "\(source.name).\(format.rawValue)")
                let original = try Fixtures.packed(source.image.buffer)
                let meanDifference = Double(zip(decoded, original).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(original.count)
                #expect(meanDifference < 3, "\(source.name).\(format.rawValue): mean difference \(meanDifference) from the photo")

                let cut = data.prefix(data.count / 2)
                #expect(throws: ImageError.self, "\(source.name).\(format.rawValue) cut short") { try VisionImage(data: cut) }
            }
        }
    }

    /// GIF is read through leptonica, an animated WebP through libwebp's animation decoder, each as its first
    /// image: the truth is Pillow's own readers (the first frame, as RGB) on files Pillow writes in the layouts
    /// the formats allow — GIF with a photo's adaptive palette, the web palette at an odd size, gray levels, two
    /// colours, and a three-frame animation; lossy and lossless animated WebP; a file cut short is a clear error.
    @Test func decodesGIFAndAnimatedWebPAsPillow() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let listing = try Self.referenceDecodes("pillow_reference.py", into: folder)
        #expect(listing.count == 7)
        for entry in listing {
            let data = try Data(contentsOf: folder.appendingPathComponent(entry.file))
            let header = try ImageHeader(data: data)
            #expect(header.format.rawValue == entry.file.split(separator: ".").last.map(String.init), "\(entry.file)")
            #expect((header.width, header.height) == (entry.width, entry.height), "\(entry.file)")
            let image = try VisionImage(data: data)
            let expected = [UInt8](try Data(contentsOf: folder.appendingPathComponent(entry.pixels)))
            Self.expectSamePixels(try Fixtures.packed(image.buffer), expected, entry.file)
            #expect(throws: ImageError.self, "\(entry.file) cut short") { try VisionImage(data: data.prefix(data.count / 3)) }
        }
    }

    /// Expects `decoded` to be `expected` byte for byte, naming `label` and how many bytes differ when not.
    static func expectSamePixels(_ decoded: [UInt8], _ expected: [UInt8], _ label: String) {
        let differing = zip(decoded, expected).filter { $0 != $1 }.count
        #expect(decoded.count == expected.count && differing == 0, "\(label): \(differing) bytes differ")
    }

    /// Expects `image` to have the pixels of `entry`'s raw BGR file in `folder`.
    static func expectSamePixels(_ image: VisionImage, _ entry: ReferenceDecode, in folder: URL, _ label: String) throws {
        let expected = [UInt8](try Data(contentsOf: folder.appendingPathComponent(entry.pixels)))
        expectSamePixels(try Fixtures.packed(image.buffer), expected, label)
    }

    /// One file a reference script wrote and decoded: its size and the raw BGR file of its pixels, at the
    /// JPEG decoder's `reduction` where the script gives one.
    struct ReferenceDecode: Decodable {
        let file: String
        let reduction: Int?
        let width: Int
        let height: Int
        let pixels: String
    }

    /// The listing `script` (in Tests/Python/Reference) prints after writing its files into `folder`.
    static func referenceDecodes(_ script: String, into folder: URL) throws -> [ReferenceDecode] {
        try JSONDecoder().decode(
            [ReferenceDecode].self, from: try Fixtures.referenceOutput(script, [Fixtures.cache.samples.path, folder.path]))
    }

    /// The command-line tool maps no OpenCV library, codec, video or FFmpeg library, nor Debian's zxing-cpp, at
    /// start: OpenCV's core and imgproc come with libSwiftVisionImaging.so, zxing-cpp 1.4 with
    /// libSwiftVisionBarcodes.so, each loaded on first use.
    @Test func theToolLinksNoOpenCV() throws {
        let mapped = try Fixtures.mappedLibraries(of: Self.executable)
        #expect(mapped.contains("libjpeg"), "\(mapped)")
        for library in ["libopencv_core", "libopencv_imgproc", "libopencv_imgcodecs", "libopencv_videoio", "libopencv_tracking",
                        "libavcodec", "libgdal", "libgstreamer", "libgfortran", "libX11", "libZXing", "libheif", "liblept"] {
            #expect(!mapped.contains(library), "\(library) is linked")
        }
    }

    /// Without libSwiftVisionImaging.so, `info` still reads the photos' headers (bus.jpg is 810×1080, zidane.jpg
    /// 1280×720, as their publishers give them), while a command that processes pixels gets a clear error line
    /// naming the library, and no crash.
    @Test func headersNeedNoImagingLibrary() throws {
        let missing = ["SWIFTVISION_IMAGING_LIBRARY": "/nonexistent/libSwiftVisionImaging.so"]
        let photos = [try Fixtures.sample("bus.jpg").path, try Fixtures.sample("zidane.jpg").path]
        let info = try Fixtures.run(Self.executable, ["info", "--json"] + photos, environment: missing, timeout: 60)
        #expect(info.status == 0, "\(info.errors)")
        let sizes = try info.output.split(separator: "\n").map {
            let line = try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            return [line["width"] as? Int, line["height"] as? Int]
        }
        #expect(sizes == [[810, 1080], [1280, 720]], "\(info.output)")
        let faces = try Fixtures.run(Self.executable, ["faces", "--json"] + photos, environment: missing, timeout: 60)
        #expect(faces.status == 1, "\(faces.errors)")
        let lines = try Self.jsonLines(of: faces)
        try #require(lines.count == 2, "\(faces.output)")
        for line in lines {
            let error = try #require(line["error"] as? String, "\(line)")
            #expect(error.contains("libSwiftVisionImaging.so") && error.contains("SWIFTVISION_IMAGING_LIBRARY"), "\(error)")
        }
    }

    /// A shim library built from other sources (here the real library with one function of its interface renamed,
    /// as a library whose function changed would read) is refused with a clear error line before any of its
    /// functions is called: called with arguments they do not take, they corrupted memory. The imaging library
    /// serves any photo, the media library a BMP.
    @Test(arguments: [
        ("libSwiftVisionImaging.so", "SWIFTVISION_IMAGING_LIBRARY", "resize(SVImageView source", "jpg"),
        ("libSwiftVisionMedia.so", "SWIFTVISION_MEDIA_LIBRARY", "decode(const uint8_t", "bmp"),
    ])
    func aLibraryFromOtherSourcesIsRefused(name: String, variable: String, entry: String, format: String) throws {
        let built = Self.executable.deletingLastPathComponent().appendingPathComponent(name)
        var library = try Data(contentsOf: built)
        let found = try #require(library.range(of: Data(entry.utf8)), "\(name) states no interface")
        #expect(library.range(of: Data(entry.utf8), in: found.upperBound..<library.endIndex) == nil)
        library[found.lowerBound] = UInt8(ascii: "X")
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = folder.appendingPathComponent(name)
        try library.write(to: other)
        let photos = try ["bus", "zidane"].map { photo in
            let file = folder.appendingPathComponent("\(photo).\(format)")
            try Fixtures.image("\(photo).jpg").encoded(fileExtension: ".\(format)", quality: 95).write(to: file)
            return file.path
        }
        let run = try Fixtures.run(Self.executable, ["faces", "--json"] + photos, environment: [variable: other.path], timeout: 60)
        #expect(run.status == 1, "\(run.errors)")
        let lines = try Self.jsonLines(of: run)
        try #require(lines.count == 2, "\(run.output)")
        for line in lines {
            let error = try #require(line["error"] as? String, "\(line)")
            #expect(error.contains("\(name) was built from other sources"), "\(error)")
        }
    }

    /// Without libSwiftVisionMedia.so, photos in the three formats are still analysed, and a video, a BMP and
    /// a tracker each get a clear error line naming the library, while the batch goes on.
    @Test func photosNeedNoMediaLibrary() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try Fixtures.image("zidane.jpg")
        let bmp = folder.appendingPathComponent("zidane.bmp"), video = folder.appendingPathComponent("zidane.mp4")
        try photo.encoded(fileExtension: ".bmp", quality: 0).write(to: bmp)
        let writer = try VideoWriter(url: video, width: photo.width, height: photo.height, framesPerSecond: 10)
        for _ in 0..<3 { try writer.append(photo) }
        writer.close()
        let missing = ["SWIFTVISION_MEDIA_LIBRARY": folder.appendingPathComponent("absent/libSwiftVisionMedia.so").path]
        let run = try Fixtures.run(
            Self.executable, ["faces", "--json", try Fixtures.sample("zidane.jpg").path, bmp.path, video.path,
                              try Fixtures.sample("chelsea.png").path], environment: missing, timeout: 120)
        #expect(run.status == 1, "\(run.errors)")
        let lines = try Self.jsonLines(of: run)
        try #require(lines.count == 4, "\(run.output)")
        #expect((lines[0]["faces"] as? [Any])?.count == 2, "\(lines[0])")
        for line in lines[1...2] {
            #expect((line["error"] as? String)?.contains("libSwiftVisionMedia.so") == true, "\(line)")
        }
        #expect(lines[3]["error"] == nil && (lines[3]["faces"] as? [Any])?.isEmpty == true, "\(lines[3])")
        let track = try Fixtures.run(Self.executable, ["track", "--json", "--box", "500,200,200,200", video.path],
                                     environment: missing, timeout: 120)
        #expect(track.status != 0 && (track.output + track.errors).contains("libSwiftVisionMedia.so"), "\(track.output) \(track.errors)")
        #expect(track.status < 128, "the tool crashed: \(track.status)")
    }

    /// Each line of a `--json` run's output as a JSON object.
    private static func jsonLines(of run: (status: Int32, output: String, errors: String)) throws -> [[String: Any]] {
        try run.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }
}
