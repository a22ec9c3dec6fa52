@_exported import MLKitVision
import SwiftVisionTasks

/// A barcode read from an image, as ML Kit's `Barcode`.
public typealias Barcode = SwiftVisionTasks.Barcode
/// The barcode formats, as ML Kit's `BarcodeFormat`.
public typealias BarcodeFormat = SwiftVisionTasks.BarcodeFormat
/// What a ``BarcodeScanner`` looks for, as ML Kit's `BarcodeScannerOptions`.
public typealias BarcodeScannerOptions = SwiftVisionTasks.BarcodeEngineOptions
