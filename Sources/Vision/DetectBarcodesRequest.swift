import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Reads barcodes, as Vision's `DetectBarcodesRequest`, with the engine of ``BarcodeScanner``.
public struct DetectBarcodesRequest: VisionRequest {
    /// The formats to read.
    public var symbologies: BarcodeFormat = .all
    /// The part of the image searched, normalised with the origin at the lower left.
    public var regionOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
    /// Called with the request's results or error each time a handler performs it (Vision's
    /// `completionHandler`); nil for none.
    public var completionHandler: CompletionHandler?
    /// What the request produces.
    public typealias Result = [BarcodeObservation]

    /// A request for every format over the whole image.
    public init() {}

    /// The formats this request can read.
    public static var supportedSymbologies: BarcodeFormat { .all }

    /// The barcodes in `image`, with corners in its upright pixels.
    public func perform(on image: VisionImage) throws -> [BarcodeObservation] {
        let task = try BarcodesTask(options: BarcodesTask.Options(BarcodeEngineOptions(formats: symbologies)))
        let (part, origin) = try image.region(ofInterest: regionOfInterest)
        return try task.output(for: part).barcodes.map {
            var barcode = $0
            barcode.corners = barcode.corners.offset(by: origin)
            return BarcodeObservation(barcode: barcode, imageSize: image.size)
        }
    }
}
