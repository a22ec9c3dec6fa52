import Foundation
import MLKitVision
import SwiftVisionTasks

/// Reads barcodes with zxing-cpp, as ML Kit's `BarcodeScanner`: every format it knows, several per
/// image, with extra passes for slanted, inverted, small and off-centre
/// codes. Safe to share between threads. Completions are called on the main queue, as on iOS, which a
/// program must serve (`dispatchMain()`, `RunLoop.main.run()`); ``barcodeScanner(options:callbackQueue:)``
/// takes another queue.
public final class BarcodeScanner: Sendable {
    private let detector: Detector<BarcodesTask>

    private init(options: BarcodeScannerOptions, callbackQueue: DispatchQueue) {
        detector = Detector(stream: false, callbackQueue: callbackQueue) {
            try BarcodesTask(options: options.taskOptions())
        }
    }

    /// A scanner with `options`, as ML Kit's `BarcodeScanner.barcodeScanner()` and `barcodeScanner(options:)`;
    /// options without a format are reported by each call, as an error in ``mlKitErrorDomain``.
    public static func barcodeScanner(
        options: BarcodeScannerOptions = BarcodeScannerOptions(), callbackQueue: DispatchQueue = .main
    ) -> BarcodeScanner {
        BarcodeScanner(options: options, callbackQueue: callbackQueue)
    }

    /// The codes in `image`, with corners in its upright pixels.
    public func results(in image: VisionImage) throws -> [Barcode] {
        try detector.output(for: image).barcodes.map(Barcode.init)
    }

    /// The codes in `image`, handed to `completion` on the callback queue, as ML Kit's `process(_:completion:)`.
    public func process(_ image: VisionImage, completion: @escaping @Sendable ([Barcode]?, (any Error)?) -> Void) {
        detector.process(image, results: { $0.barcodes.map(Barcode.init) }, completion: completion)
    }

    /// The codes in `image`, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> [Barcode] {
        try await detector.output(processing: image).barcodes.map(Barcode.init)
    }
}
