import Foundation
import SwiftVision

/// The second section of `make bench`: rectangle detection at 1, 4 and 12 megapixels, barcode
/// reading next to zxing-cpp's Python binding and text recognition next to the `tesseract` command,
/// on the same images in the same run. Barcode scenes are built by Tests/Reference/vision_fixtures.py.
enum RecognitionBenchmark {
    static let iterations = 5
    static let barcodeScenes = ["several-on-bus.jpg", "photo-QRCode.jpg", "photo-EAN13.jpg", "tilted-ean13.jpg"]
    static let barcodeSamples = ["pyzbar-code128.png", "pyzbar-qrcode_rotated.png"]
    static let textScenes = ["paragraph.png", "notice-on-bus.jpg"]
    static let textSamples = ["page.png"]

    static func run(cache: SwiftVisionCache) throws {
        let python = cache.root.appendingPathComponent("venv/bin/python")
        let scenes = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scenes) }
        func build(_ kind: String, _ names: [String]) throws -> [String] {
            let built = try PeerProcess.run(
                python: python, script: "../Tests/Reference/vision_fixtures.py",
                arguments: [kind, scenes.appendingPathComponent(kind).path, cache.samples.path], as: [Scene].self)
            return names.compactMap { name in built.first { $0.file.hasSuffix("/" + name) }?.file }
        }
        let barcodeImages = try build("barcodes", barcodeScenes) + barcodeSamples.map { cache.sample(named: $0).path }
        let textImages = try build("text", textScenes) + textSamples.map { cache.sample(named: $0).path }
        let peer = try PeerProcess.run(
            python: python, script: "recognition_peer.py",
            arguments: ["\(iterations)", "--barcodes"] + barcodeImages + ["--text"] + textImages, as: Peer.self)

        print("")
        print("Rectangles, barcodes, text — median of \(iterations) runs on decoded images, 1 thread")
        print("peers: zxing-cpp \(peer.zxingVersion) Python binding (default options); \(peer.tesseractVersion) command")
        print("       (the command's time includes starting the process and loading the model)")
        print(BenchmarkRow.header)
        let photo = try VisionImage(contentsOf: cache.sample(named: "bus.jpg"))
        for megapixels in [1.0, 4, 12] {
            let scale = (megapixels * 1_000_000 / Double(photo.width * photo.height)).squareRoot()
            let image = try photo.resized(width: Int(Double(photo.width) * scale), height: Int(Double(photo.height) * scale))
            var found = 0
            let ms = try medianMilliseconds(iterations: iterations) { found = try RectangleDetector().results(in: image).count }
            print(BenchmarkRow(task: "rectangles bus.jpg \(image.width)×\(image.height) (\(found) found)", swift: ms, peer: nil, peakMiB: peakResidentMiB()).line)
        }
        let scanner = BarcodeScanner()
        for path in barcodeImages {
            let image = try VisionImage(contentsOfFile: path)
            var found = 0
            let ms = try medianMilliseconds(iterations: iterations) { found = try scanner.results(in: image).count }
            let other = peer.barcodes[path]
            let name = URL(fileURLWithPath: path).lastPathComponent
            print(BenchmarkRow(task: "barcodes \(name) (\(found) vs \(other?.count ?? 0) read)", swift: ms, peer: other?.ms, peakMiB: peakResidentMiB()).line)
        }
        let recognizer = try TextRecognizer()
        for path in textImages {
            let image = try VisionImage(contentsOfFile: path)
            var words = 0
            let ms = try medianMilliseconds(iterations: max(1, iterations / 2)) {
                words = try recognizer.results(in: image).blocks.flatMap(\.lines).flatMap(\.elements).count
            }
            let other = peer.text[path]
            let name = URL(fileURLWithPath: path).lastPathComponent
            print(BenchmarkRow(task: "text \(name) (\(words) vs \(other?.words ?? 0) words)", swift: ms, peer: other?.ms, peakMiB: peakResidentMiB()).line)
        }
    }

    /// A scene written by the fixture script.
    struct Scene: Decodable {
        var file: String
    }

    struct Peer: Decodable {
        struct Reading: Decodable {
            var ms: Double
            var count: Int
        }
        struct Recognition: Decodable {
            var ms: Double
            var words: Int
        }
        var zxingVersion: String
        var tesseractVersion: String
        var barcodes: [String: Reading]
        var text: [String: Recognition]

        enum CodingKeys: String, CodingKey {
            case zxingVersion = "zxing_version", tesseractVersion = "tesseract_version", barcodes, text
        }
    }
}
