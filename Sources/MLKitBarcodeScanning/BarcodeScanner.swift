import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Reads barcodes with zxing-cpp, as ML Kit's `BarcodeScanner`: every format it knows, several per
/// image, with extra passes (the options switch them on) for slanted, inverted, small and off-centre
/// codes. Safe to share between threads.
public struct BarcodeScanner: Sendable {
    /// What the scanner looks for and how hard it tries.
    public let options: BarcodeScannerOptions
    private let runner: Result<TaskRunner<BarcodeTask>, any Error>

    /// A scanner with `options`; options the task refuses are reported by ``results(in:)``.
    public init(options: BarcodeScannerOptions = .init()) {
        self.options = options
        runner = Result { TaskRunner(task: try BarcodeTask(options: BarcodeTask.Options(options))) }
    }

    /// A scanner with `options`, as ML Kit's `BarcodeScanner.barcodeScanner(options:)`.
    public static func barcodeScanner(options: BarcodeScannerOptions = .init()) -> BarcodeScanner {
        BarcodeScanner(options: options)
    }

    /// The codes in `image`, with corners in its upright pixels.
    public func results(in image: VisionImage) throws -> [Barcode] {
        try runner.get().run(image).barcodes
    }

    /// The codes in `image`, computed off the caller's task.
    public func process(_ image: VisionImage) async throws -> [Barcode] {
        try await runner.get().process(image).barcodes
    }
}
