import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// A barcode read by ``DetectBarcodesRequest`` (Vision's `VNBarcodeObservation`).
public struct BarcodeObservation: QuadrilateralObservation, Equatable {
    /// Identifies the observation (Vision's `uuid`): new for each observation made, kept by its copies.
    public let uuid: UUID
    /// Corners named in the symbol's own orientation (see ``Barcode/corners``).
    public var imageCorners: Quadrilateral
    /// The upright size of the image the barcode was read in, in pixels.
    public var imageSize: CGSize
    /// 1: zxing-cpp reports only codes whose checks pass.
    public var confidence: Float { 1 }
    /// The barcode's format (Vision's `symbology`).
    public var symbology: BarcodeFormat
    /// The content as text.
    public var payloadString: String
    /// The content's bytes as encoded in the symbol.
    public var payloadData: Data
    /// The full result, with orientation and symbology identifier.
    public var barcode: Barcode

    /// An observation of `barcode`, read in an image of `imageSize` upright pixels.
    public init(barcode: Barcode, imageSize: CGSize) {
        uuid = UUID()
        imageCorners = barcode.corners
        self.imageSize = imageSize
        symbology = barcode.format
        payloadString = barcode.rawValue
        payloadData = barcode.rawData
        self.barcode = barcode
    }
}
