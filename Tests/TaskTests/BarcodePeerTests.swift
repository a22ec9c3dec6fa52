import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

/// The reader next to zxing-cpp 3.1.1's Python binding with its default options (Tests/Python/Reference/zxing_peer.py),
/// on the barcode scenes, whose truth is the content the fixture script wrote, and on the pyzbar photos.
@Suite struct BarcodePeerTests {
    typealias PeerRead = (format: String, text: String, upcE: String)

    /// The peer's reads of each file.
    static func peerReads(_ files: [String]) throws -> [String: [PeerRead]] {
        let python = Fixtures.cache.root.appendingPathComponent("venv/bin/python")
        let script = Fixtures.packageRoot.appendingPathComponent("Tests/Python/Reference/zxing_peer.py")
        let run = try Fixtures.run(python, [script.path] + files)
        try #require(run.status == 0, "zxing_peer.py: \(run.errors)")
        let decoded = try JSONDecoder().decode([String: [[String]]].self, from: Data(run.output.utf8))
        return decoded.mapValues { $0.map { ($0[0], $0[1], $0[2]) } }
    }

    /// At least as many codes read exactly (format and content) as the peer, and no code on the photos without one.
    @Test func readsAtLeastWhatZXing3ReadsAndNothingWhereThereIsNothing() throws {
        let scenes = VisionFixtures.barcodes
        try #require(!scenes.isEmpty)
        let peer = try Self.peerReads(scenes.map(\.file))
        var (ours, theirs, truths) = (0, 0, 0)
        for scene in scenes {
            let found = try BarcodeEngine().results(in: VisionImage(contentsOfFile: scene.file))
            let name = URL(fileURLWithPath: scene.file).lastPathComponent
            if scene.barcodes.isEmpty {
                #expect(found.isEmpty, "\(name): read \(found.map(\.rawValue)) on a photo without codes")
                #expect(peer[scene.file]?.isEmpty == true, "\(name): the peer read a code on a photo without codes")
            }
            for code in scene.barcodes {
                truths += 1
                if found.contains(where: { $0.format.description == code.format && $0.rawValue == code.text }) { ours += 1 }
                // zxing-cpp 3 shows some contents otherwise (UPC-A with a leading 0, Codabar with its start and
                // stop characters, DataBar after "(01)", UPC-E as 13 digits): the truth within its text counts.
                if peer[scene.file, default: []].contains(where: { $0.text.contains(code.text) || $0.upcE == code.text }) {
                    theirs += 1
                }
            }
        }
        #expect(truths > 30)
        #expect(ours >= theirs, "exact reads: ours \(ours), zxing-cpp 3.1.1's Python binding \(theirs) of \(truths)")
        // The tilted EAN-13 (40°) is one the peer misses and the reader's turned pass reads.
        #expect(ours > theirs, "ours \(ours), peer \(theirs)")
    }

    /// Book backs photographed together (Tests/Python/Reference/vision_fixtures.py: five distinct EAN-13 values with
    /// their check digits, in perspective, at several slants and sizes, two side by side): each value is read
    /// exactly once, as EAN-13, nothing else is, and every code the peer reads is among them.
    @Test func readsEveryBookOnceOnACrowdedPhoto() throws {
        let scene = try VisionFixtures.scene("books-ean13.jpg", in: VisionFixtures.barcodes, file: \.file)
        let truth = scene.barcodes.map(\.text).sorted()
        try #require(truth.count >= 4 && Set(truth).count == truth.count)
        let found = try BarcodeEngine().results(in: VisionImage(contentsOfFile: scene.file))
        #expect(found.map(\.rawValue).sorted() == truth, "read \(found.map(\.rawValue))")
        #expect(found.allSatisfy { $0.format == .ean13 })
        let peer = try Self.peerReads([scene.file])[scene.file, default: []].map(\.text)
        #expect(!peer.isEmpty && Set(peer).isSubset(of: found.map(\.rawValue)), "peer \(peer)")
    }

    /// Without zxing-cpp 3's library, Debian's zxing-cpp 1.4 reads the same codes of the scenes.
    @Test func debiansZXingIsTheFallback() throws {
        #expect(throws: VisionTaskError.self) { try ZXingLibrary(path: "/nonexistent/libZXing-swiftvision.so") }
        guard case .zxing3 = ZXingBuild.preferred else {
            Issue.record("zxing-cpp 3 did not load: \(ZXingBuild.fallbackReason ?? "")")
            return
        }
        var fallback = ZXingReader(formats: .all, tryHarder: true, tryRotate: true, tryDownscale: true, maximumCount: 0)
        let current = fallback
        fallback.build = .debian
        var read = 0
        for name in ["photo-QRCode.jpg", "photo-UPCA.jpg", "photo-Codabar.jpg", "clean-UPCE.png", "photo-EAN13.jpg"] {
            let scene = try VisionFixtures.scene(name, in: VisionFixtures.barcodes, file: \.file)
            let gray = try VisionImage(contentsOfFile: scene.file).uprightGray()
            let old = try fallback.barcodes(in: gray).map { "\($0.format) \($0.rawValue)" }
            let new = try current.barcodes(in: gray).map { "\($0.format) \($0.rawValue)" }
            #expect(Set(old) == Set(new), "\(name): 1.4 \(old), 3 \(new)")
            #expect(scene.barcodes.allSatisfy { code in old.contains("\(code.format) \(code.text)") }, "\(name): \(old)")
            read += old.count
        }
        #expect(read >= 5)
    }

    /// `barcodes --verbose` names the reader in use on a line of its own: zxing-cpp 3.1.1 (the version
    /// scripts/build-zxing.sh pins) at the cache's library path; without that library the tool falls back to
    /// Debian's 1.4, says why, and reads the same QR code.
    @Test func theToolSaysWhichReaderReads() throws {
        let executable = Fixtures.executable
        let photo = try Fixtures.sample("pyzbar-qrcode.png").path
        func readerLines(_ errors: String) -> [String] {
            errors.split(separator: "\n").map(String.init).filter { $0.hasPrefix("barcodes: reading with ") }
        }
        func codes(_ output: String) throws -> [String] {
            let lines = output.split(separator: "\n")
            try #require(lines.count == 1, "\(output)")
            let decoded = try JSONDecoder().decode(BarcodesTask.Output.self, from: Data(lines[0].utf8))
            return decoded.barcodes.map { "\($0.format) \($0.rawValue)" }
        }
        let current = try Fixtures.run(executable, ["barcodes", "--json", "--verbose", photo])
        #expect(current.status == 0, "\(current.errors)")
        let library = SwiftVisionCache.current.barcodeLibrary.path
        #expect(readerLines(current.errors) == ["barcodes: reading with zxing-cpp 3.1.1 (\(library))"], "\(current.errors)")
        let fallback = try Fixtures.run(
            executable, ["barcodes", "--json", "--verbose", photo], environment: ["SWIFTVISION_ZXING_LIBRARY": "/nonexistent/libZXing.so"])
        #expect(fallback.status == 0, "\(fallback.errors)")
        let line = try #require(readerLines(fallback.errors).first, "\(fallback.errors)")
        #expect(readerLines(fallback.errors).count == 1)
        #expect(line.hasPrefix("barcodes: reading with zxing-cpp 1.4 (Debian's libZXing); zxing-cpp 3 not loaded: "), "\(line)")
        #expect(line.contains("/nonexistent/libZXing.so"), "\(line)")
        // The same content; the corners may differ by a pixel or two between the two versions.
        #expect(try codes(fallback.output) == ["QRCode Thalassiodracon"])
        #expect(try codes(current.output) == codes(fallback.output))
    }

    /// Debian's zxing-cpp 1.4 comes with libSwiftVisionBarcodes.so, loaded on first use: without it and without
    /// zxing-cpp 3, the tool gives an error line naming the library, and no crash.
    @Test func theFallbackNeedsItsLibrary() throws {
        let photo = try Fixtures.sample("pyzbar-qrcode.png").path
        let environment = [
            "SWIFTVISION_ZXING_LIBRARY": "/nonexistent/libZXing.so",
            "SWIFTVISION_BARCODES_LIBRARY": "/nonexistent/libSwiftVisionBarcodes.so",
        ]
        let run = try Fixtures.run(Fixtures.executable, ["barcodes", "--json", photo], environment: environment)
        #expect(run.status == 1, "\(run.errors)")
        let lines = run.output.split(separator: "\n")
        try #require(lines.count == 1, "\(run.output)")
        let line = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let error = try #require(line["error"] as? String, "\(line)")
        #expect(error.contains("libSwiftVisionBarcodes.so") && error.contains("SWIFTVISION_BARCODES_LIBRARY"), "\(error)")
    }

    /// A libSwiftVisionBarcodes.so built from other declarations than the tool's is refused with an error line
    /// before any of its functions is called: the real library with one function's declaration changed in the
    /// interface it states is refused, while an unchanged copy reads the QR code.
    @Test func aFallbackFromOtherSourcesIsRefused() throws {
        let photo = try Fixtures.sample("pyzbar-qrcode.png").path
        let built = Fixtures.executable.deletingLastPathComponent().appendingPathComponent("libSwiftVisionBarcodes.so")
        let entry = Data("int svb_read_barcodes(".utf8)
        var library = try Data(contentsOf: built)
        let found = try #require(library.range(of: entry), "libSwiftVisionBarcodes.so states no interface")
        #expect(library.range(of: entry, in: found.upperBound..<library.endIndex) == nil)
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func run(_ library: Data, in name: String) throws -> (status: Int32, line: [String: Any]) {
            let copy = folder.appendingPathComponent(name, isDirectory: true)
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            let file = copy.appendingPathComponent("libSwiftVisionBarcodes.so")
            try library.write(to: file)
            let environment = ["SWIFTVISION_ZXING_LIBRARY": "/nonexistent/libZXing.so", "SWIFTVISION_BARCODES_LIBRARY": file.path]
            let run = try Fixtures.run(Fixtures.executable, ["barcodes", "--json", photo], environment: environment)
            let lines = run.output.split(separator: "\n")
            try #require(lines.count == 1, "\(run.output) \(run.errors)")
            return (run.status, try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]))
        }
        let same = try run(library, in: "same")
        #expect(same.status == 0 && same.line["error"] == nil, "\(same.line)")
        library[found.lowerBound] = UInt8(ascii: "X")
        let other = try run(library, in: "other")
        #expect(other.status == 1, "\(other.line)")
        let error = try #require(other.line["error"] as? String, "\(other.line)")
        #expect(error.contains("libSwiftVisionBarcodes.so was built from other sources"), "\(error)")
    }
}
