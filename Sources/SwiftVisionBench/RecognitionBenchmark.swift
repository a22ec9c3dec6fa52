import Foundation
import SwiftVision

/// The recognition section of `make bench`: barcode reading next to zxing-cpp's Python binding (kept
/// running, its runs alternating with ours one by one) and text recognition next to Tesseract's API through tesserocr (started once, fed the same decoded
/// image), on the same images in the same run. Barcode scenes are built by Tests/Python/Reference/vision_fixtures.py.
enum RecognitionBenchmark {
    /// Barcode runs a side, ours and the peer's in turns.
    static let barcodeIterations = 10
    /// Text runs a side; the peer's come in two halves, before and after ours.
    static let textIterations = 10
    static let barcodeScenes = [
        "several-on-bus.jpg", "photo-QRCode.jpg", "photo-EAN13.jpg", "tilted-ean13.jpg", "books-ean13.jpg",
        "tiny-datamatrix.png",
    ]
    static let barcodeSamples = ["pyzbar-code128.png", "pyzbar-qrcode_rotated.png"]
    static let textScenes = ["paragraph.png", "notice-on-bus.jpg"]
    static let textSamples = ["page.png"]

    static func run(cache: SwiftVisionCache) throws {
        let python = cache.root.appendingPathComponent("venv/bin/python")
        let scenes = FileManager.default.temporaryDirectory.appendingPathComponent("swiftvision-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scenes) }
        func build(_ kind: String, _ names: [String]) throws -> [String] {
            let built = try PeerProcess.run(
                python: python, script: "../Tests/Python/Reference/vision_fixtures.py",
                arguments: [kind, scenes.appendingPathComponent(kind).path, cache.samples.path], as: [Scene].self)
            return names.compactMap { name in built.first { $0.file.hasSuffix("/" + name) }?.file }
        }
        let barcodeImages = try build("barcodes", barcodeScenes) + barcodeSamples.map { cache.sample(named: $0).path }
        let textImages = try build("text", textScenes) + textSamples.map { cache.sample(named: $0).path }
        func runPeer() throws -> TextPeer {
            try PeerProcess.run(
                python: python, script: "recognition_peer.py", arguments: ["\(textIterations / 2)"] + textImages,
                as: TextPeer.self)
        }
        let peer = try runPeer()
        let fast = try TextEngine.shared(TextEngineOptions(recognitionLevel: .fast))
        let accurate = try TextEngine.shared(TextEngineOptions())
        let text = try textImages.map { path in
            let image = try VisionImage(contentsOfFile: path)
            return try [fast, accurate].map { recognizer in try TextReading(recognizer: recognizer, image: image) }
        }
        let peerAfter = try runPeer()
        let (zxing, barcodes, cpu) = try CPUAffinity.onOneCPU { cpu in
            let barcodePeer = try PeerSession(python: python, script: "recognition_peer.py", arguments: ["--serve-barcodes"])
            let zxing = try barcodePeer.line(as: BarcodePeerGreeting.self)
            let scanner = BarcodeEngine()
            return (zxing, try barcodeImages.map { try BarcodeReads(of: $0, scanner: scanner, peer: barcodePeer) }, cpu)
        }

        print("")
        print("Barcodes, text — median of \(barcodeIterations) runs a side (barcodes), \(textIterations) a side (text)"
            + " on decoded images, 1 thread")
        print("peers: zxing-cpp \(zxing.zxingVersion) Python binding (default options) on the decoded image as ours, gray or RGB,")
        print("       kept running: its runs and ours alternate one by one, each side first in every other turn"
            + (cpu.map { ", both pinned to CPU \($0.number);" } ?? ";"))
        print("       \(peer.tesseractVersion): one PyTessBaseAPI, eng, PSM_AUTO, LSTM, 300 dpi, on the gray image,")
        print("       its runs in two halves, before and after ours")
        print("text rows: `fast` is that same single Tesseract pass; `accurate` adds orientation, light flattening, rescaling;")
        print("       words: ours vs the peer's, and the share of the peer's words we read too")
        BenchmarkRow.printHeader()
        for (path, reads) in zip(barcodeImages, barcodes) {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let task = "barcodes \(name) (\(reads.found) vs \(reads.peerFound) read)"
            print(BenchmarkRow(task: task, swift: reads.time, peer: reads.peerTime, peakMiB: peakResidentMiB()).line)
        }
        for (path, readings) in zip(textImages, text) {
            let name = URL(fileURLWithPath: path).lastPathComponent
            let words = peer.text[path]?.words ?? []
            let samples = (peer.text[path]?.samples ?? []) + (peerAfter.text[path]?.samples ?? [])
            for (level, reading) in zip(["fast", "accurate"], readings) {
                let row = BenchmarkRow(task: "text \(level) \(name)", swift: reading.time, peer: Timing(samples: samples), peakMiB: peakResidentMiB())
                print(row.line + " words \(reading.words.count) vs \(words.count), \(reading.agreement(with: words))")
            }
        }
        try TextCommandBenchmark.run(images: textImages, fast: text.map { $0[0] }, python: python)
    }

    /// The words one recogniser reads in an image, and its timing.
    struct TextReading {
        var words: [String]
        var time: Timing

        init(recognizer: TextEngine, image: VisionImage) throws {
            words = try recognizer.results(in: image).blocks.flatMap(\.lines).flatMap(\.elements).map(\.text)
            time = try timeMilliseconds(iterations: textIterations) { _ = try recognizer.results(in: image) }
        }

        /// The share of `other` words (counted with repeats) that these words hold too, as a percentage.
        func agreement(with other: [String]) -> String {
            var left = Dictionary(words.map { ($0, 1) }, uniquingKeysWith: +)
            var shared = 0
            for word in other where left[word, default: 0] > 0 {
                left[word, default: 0] -= 1
                shared += 1
            }
            return String(format: "%.0f%% agree", 100 * Double(shared) / Double(max(other.count, 1)))
        }
    }

    /// Our reads of one image and the peer's, in turns (``PeerSession/turns(iterations:request:as:ours:)``).
    struct BarcodeReads {
        var found: Int
        var peerFound: Int
        var time: Timing
        var peerTime: Timing

        init(of path: String, scanner: BarcodeEngine, peer: PeerSession) throws {
            let image = try VisionImage(contentsOfFile: path)
            var found = 0
            let turns = try peer.turns(iterations: barcodeIterations, request: "read \(path)", as: PeerCount.self) {
                found = try scanner.results(in: image).count
            }
            (self.found, peerFound, time, peerTime) = (found, turns.answer.count, turns.time, turns.peerTime)
        }
    }

    /// The barcode peer's first line.
    struct BarcodePeerGreeting: Decodable {
        var zxingVersion: String

        enum CodingKeys: String, CodingKey {
            case zxingVersion = "zxing_version"
        }
    }

    /// A scene written by the fixture script.
    struct Scene: Decodable {
        var file: String
    }

    /// The text peer's samples and words of each image.
    struct TextPeer: Decodable {
        struct Recognition: Decodable {
            var samples: [Double]
            var words: [String]
        }
        var tesseractVersion: String
        var text: [String: Recognition]

        enum CodingKeys: String, CodingKey {
            case tesseractVersion = "tesseract_version", text
        }
    }
}
