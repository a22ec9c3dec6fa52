import Dispatch
import Foundation
import MLKit
import Testing

/// Barcode scanning and text recognition written as Google's ML Kit iOS guides shape them, with only the
/// image lines changed and the callback queue set since a test has no main loop. Truth: the sample
/// pyzbar-qrcode.png holds one QR code of the text "Thalassiodracon" (pyzbar's tests); page.png is a
/// scanned page whose first paragraph is about finding markers of coins (read by eye).
@Suite(.serialized) struct MLKitBarcodeTextPortTests {
    @Test func scansBarcodesAsTheGuideDoes() async throws {
        let format: BarcodeFormat = [.qrCode, .EAN13, .aztec]
        let barcodeOptions = BarcodeScannerOptions(formats: format)
        #expect(BarcodeScannerOptions().formats == .all)
        let barcodeScanner = BarcodeScanner.barcodeScanner(options: barcodeOptions, callbackQueue: PortFixtures.callbacks)
        let visionImage = try VisionImage(contentsOf: PortFixtures.sample("pyzbar-qrcode.png"))
        visionImage.orientation = .up

        let delivered = await PortFixtures.completion { barcodeScanner.process(visionImage, completion: $0) }
        #expect(delivered.error == nil && delivered.onCallbacks)
        let barcodes = try #require(delivered.results)
        #expect(barcodes.count == 1)
        for barcode in barcodes {
            let corners = barcode.cornerPoints
            let displayValue = barcode.displayValue
            let rawValue = barcode.rawValue
            let valueType = barcode.valueType
            switch valueType {
            case .wiFi:
                Issue.record("a Wi-Fi code: \(barcode.wifi?.ssid ?? "") \(barcode.wifi?.password ?? "") \(barcode.wifi?.type.rawValue ?? 0)")
            case .URL:
                Issue.record("a bookmark: \(barcode.url?.title ?? "") \(barcode.url?.url ?? "")")
            default:
                #expect(valueType == .text && rawValue == "Thalassiodracon" && displayValue == rawValue)
            }
            #expect(barcode.format == .qrCode)
            let points = try #require(corners).map(\.cgPointValue)
            #expect(points.count == 4 && points.allSatisfy { barcode.frame.insetBy(dx: -1, dy: -1).contains($0) })
        }
        #expect(try barcodeScanner.results(in: visionImage).map(\.rawValue) == ["Thalassiodracon"])
    }

    @Test func recognizesTextAsTheGuideDoes() async throws {
        let options = TextRecognizerOptions()
        let textRecognizer = TextRecognizer.textRecognizer(options: options, callbackQueue: PortFixtures.callbacks)
        let visionImage = try VisionImage(contentsOf: PortFixtures.sample("page.png"))

        let delivered = await PortFixtures.completion { textRecognizer.process(visionImage, completion: $0) }
        #expect(delivered.error == nil && delivered.onCallbacks)
        let result = try #require(delivered.results)
        let resultText = result.text
        var elements: [String] = []
        for block in result.blocks {
            let blockLanguages = block.recognizedLanguages
            let blockCornerPoints = block.cornerPoints
            #expect(blockLanguages.first?.languageCode == "en" && blockCornerPoints.count == 4 && !block.frame.isEmpty)
            for line in block.lines {
                #expect(resultText.contains(line.text) && line.cornerPoints.count == 4)
                for element in line.elements {
                    #expect(block.frame.contains(element.frame) && element.cornerPoints[0].cgPointValue == element.frame.origin)
                    elements.append(element.text)
                }
            }
        }
        for word in ["Region-based", "segmentation", "markers", "coins", "background.", "histogram"] {
            #expect(elements.contains(word), "\(word) not read: \(resultText)")
        }
        #expect(try textRecognizer.results(in: visionImage).text == resultText)
    }

    /// The quickstart's script picker: one `CommonTextRecognizerOptions` variable set to each script's options
    /// class, then one recogniser. Truth: page.png's English words for Latin; each other script reads
    /// Tesseract's data for it (ML Kit's scripts as Tesseract names them), and where that data is not
    /// installed the recognition fails in ML Kit's domain with code 3 (invalid argument), naming it.
    @Test func recognizesTextWithEachScriptsOptions() async throws {
        let visionImage = try VisionImage(contentsOf: PortFixtures.sample("page.png"))
        let installed = TextRecognizer.supportedLanguages()
        let scripts: [(CommonTextRecognizerOptions, String)] = [
            (TextRecognizerOptions(), "eng"), (ChineseTextRecognizerOptions(), "chi_sim"),
            (DevanagariTextRecognizerOptions(), "hin"), (JapaneseTextRecognizerOptions(), "jpn"), (KoreanTextRecognizerOptions(), "kor"),
        ]
        for (scriptOptions, language) in scripts {
            var options: CommonTextRecognizerOptions
            options = scriptOptions
            #expect(options.languages.first == language && options.languages.contains("eng"))
            let textRecognizer = TextRecognizer.textRecognizer(options: options, callbackQueue: PortFixtures.callbacks)
            let delivered = await PortFixtures.completion { textRecognizer.process(visionImage, completion: $0) }
            if installed.contains(language) {
                #expect(delivered.error == nil && delivered.results?.text.contains("segmentation") == true, "\(language)")
            } else {
                let error = try #require(delivered.error as? NSError, "\(language)")
                #expect(error.domain == mlKitErrorDomain && delivered.results == nil, "\(language)")
                #expect(error.code == MLKitErrorCode.invalidArgument.rawValue && error.localizedDescription.contains(language), "\(language): \(error)")
            }
        }
    }
}
