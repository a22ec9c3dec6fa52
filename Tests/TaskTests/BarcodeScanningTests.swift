import Foundation
import SwiftVisionTestSupport
import Testing

@testable import SwiftVision
@testable import SwiftVisionCore
@testable import SwiftVisionRuntime
@testable import SwiftVisionTasks

@Suite struct BarcodeScanningTests {
    static var sceneNames: [String] { VisionFixtures.barcodes.map { URL(fileURLWithPath: $0.file).lastPathComponent } }

    /// The scenes cover every format zxing-cpp writes (all but MaxiCode), clean and on a photo.
    @Test func scenesCoverEveryFormat() {
        for (name, _) in BarcodeFormat.named where name != "MaxiCode" {
            #expect(Self.sceneNames.contains("clean-\(name).png") && Self.sceneNames.contains("photo-\(name).jpg"), "\(name)")
        }
    }

    /// Every code written into the scene is read with its format, text and corners, and nothing else is.
    @Test(arguments: sceneNames)
    func readsEveryCodeInTheScene(name: String) throws {
        let scene = try VisionFixtures.scene(name, in: VisionFixtures.barcodes, file: \.file)
        let found = try BarcodeEngine().results(in: VisionImage(contentsOfFile: scene.file))
        for code in scene.barcodes {
            let format = try #require(BarcodeFormat(name: code.format))
            let read = found.first { $0.format == format && $0.rawValue == code.text }
            let barcode = try #require(read, "\(name): \(code.format) \"\(code.text)\" not read; read \(found.map(\.rawValue))")
            let truth = Quadrilateral(code.symbol)
            let size = hypot(Double(truth.topRight.x - truth.bottomLeft.x), Double(truth.topRight.y - truth.bottomLeft.y))
            if BarcodeFormat.matrix.contains(format) {
                // Matrix codes name their corners in the symbol's own orientation, as the truth does.
                #expect(barcode.corners.largestCornerDistance(to: truth) <= 3, "\(name): \(barcode.corners.corners)")
            } else if ![BarcodeFormat.dataBar, .dataBarExpanded].contains(format) {
                // Linear codes: the run of bars, measured by this package (guard bars reach lower).
                let error = barcode.corners.largestCornerDistance(toAnyOrderOf: truth)
                #expect(error <= 0.08 * size, "\(name): \(barcode.corners.corners) off by \(error) px")
            } else {
                #expect(truth.boundingBox.insetBy(dx: -4, dy: -4).contains(barcode.frame.center), "\(name)")
            }
        }
        let expected = Set(scene.barcodes.map(\.text))
        #expect(found.allSatisfy { expected.contains($0.rawValue) }, "\(name): also read \(found.map(\.rawValue))")
    }

    /// The pyzbar wheel's test images with the values and positions its tests list.
    @Test func readsThePyzbarTestImages() throws {
        let pairs = try BarcodeEngine().results(in: Fixtures.image("pyzbar-code128.png")).map { ($0.rawValue, $0.frame) }
        let expected: [(String, CGRect)] = [
            ("Foramenifera", CGRect(x: 37, y: 550, width: 324, height: 76)),
            ("Rana temporaria", CGRect(x: 4, y: 0, width: 390, height: 76)),
        ]
        #expect(pairs.count == 2)
        for (text, rect) in expected {
            let frame = try #require(pairs.first { $0.0 == text }?.1, "\(text) not read")
            for (a, b) in [(frame.minX, rect.minX), (frame.minY, rect.minY), (frame.maxX, rect.maxX), (frame.maxY, rect.maxY)] {
                #expect(abs(Double(a - b)) <= 6, "\(text): \(frame) against \(rect)")
            }
        }
        let null = try #require(try BarcodeEngine().results(in: Fixtures.image("pyzbar-code128_null_character.png")).first)
        #expect(null.rawData == Data("Hello\u{0}Goodbye".utf8) && null.rawValue == "Hello\u{0}Goodbye")

        let qr = try #require(try BarcodeEngine().results(in: Fixtures.image("pyzbar-qrcode.png")).first)
        #expect(qr.format == .qrCode && qr.rawValue == "Thalassiodracon")
        // zbar's rectangle; zxing-cpp 3 puts the far corner 2 px further out on both axes than 1.4 did.
        #expect(qr.corners.largestCornerDistance(toAnyOrderOf: Quadrilateral(rect: CGRect(x: 27, y: 27, width: 145, height: 145))) <= 3)

        // Two copies of one code, one turned 45° and one by about a quarter turn.
        let rotated = try BarcodeEngine().results(in: Fixtures.image("pyzbar-qrcode_rotated.png"))
        let polygons = [[[173.0, 113], [276, 215], [378, 113], [276, 10]], [[32, 352], [177, 366], [190, 222], [46, 208]]]
        #expect(rotated.count == 2 && rotated.allSatisfy { $0.rawValue == "Thalassiodracon" })
        for polygon in polygons {
            let truth = Quadrilateral(polygon)
            #expect(rotated.contains { $0.corners.largestCornerDistance(toAnyOrderOf: truth) <= 4 }, "\(polygon)")
        }
        #expect(try BarcodeEngine().results(in: Fixtures.image("pyzbar-empty.png")).isEmpty)
    }

    @Test func formatsOptionLimitsWhatIsRead() throws {
        let scene = try VisionFixtures.scene("several-on-bus.jpg", in: VisionFixtures.barcodes, file: \.file)
        let image = try VisionImage(contentsOfFile: scene.file)
        let qr = try BarcodeEngine(options: BarcodeEngineOptions(formats: .qrCode)).results(in: image)
        #expect(qr.map(\.format) == [.qrCode])
        let linear = try BarcodeEngine(options: BarcodeEngineOptions(formats: .linear)).results(in: image)
        #expect(Set(linear.map(\.format)) == [.ean13, .ean8, .code39])
        let two = try BarcodeEngine(options: BarcodeEngineOptions(maximumCount: 2)).results(in: image)
        #expect(two.count == 2)
    }

    /// The extra passes are what read slanted and inverted codes: without them these stay unread.
    @Test func effortOptionsReadSlantedAndInvertedCodes() throws {
        for (name, text) in [("tilted-ean13.jpg", "4006381333931"), ("inverted-on-dog.png", "DataMatrix 2024-06-07")] {
            let scene = try VisionFixtures.scene(name, in: VisionFixtures.barcodes, file: \.file)
            let image = try VisionImage(contentsOfFile: scene.file)
            #expect(try BarcodeEngine(options: .fast).results(in: image).allSatisfy { $0.rawValue != text }, "\(name)")
            #expect(try BarcodeEngine().results(in: image).contains { $0.rawValue == text }, "\(name)")
        }
    }

    @Test func badInputGivesNoCodesOrClearErrors() async throws {
        let tiny = try VisionImage(pixels: Data([0]), width: 1, height: 1, format: .gray)
        #expect(try BarcodeEngine().results(in: tiny).isEmpty)
        let flat = try VisionImage(pixels: Data(repeating: 200, count: 300 * 200 * 3), width: 300, height: 200, format: .rgb)
        #expect(try BarcodeEngine().results(in: flat).isEmpty)
        var negative = BarcodesTask.Options()
        negative.max = -1
        #expect(throws: VisionTaskError.invalidOption("must not be negative, not -1", key: "max")) {
            try BarcodesTask(options: negative)
        }
        #expect(BarcodeFormat(name: "qrcode") == .qrCode && BarcodeFormat(name: "linear") == .linear)
        #expect(BarcodeFormat(name: "Telepen") == nil)
        #expect(BarcodeFormat.all.description.split(separator: "|").count == BarcodeFormat.named.count)
    }
}

extension CGRect {
    var center: CGPoint { CGPoint(x: midX, y: midY) }
}
