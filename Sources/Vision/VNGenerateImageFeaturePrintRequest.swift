import Foundation
import SwiftVisionCore
import SwiftVisionTasks

/// How a request fits an image to its model's square input, as Vision's `VNImageCropAndScaleOption`.
public typealias VNImageCropAndScaleOption = ImageCropAndScaleOption

/// The type of a feature print's values, as Vision's `VNElementType`, with Apple's values.
public enum VNElementType: UInt, Sendable, CaseIterable {
    /// Not known.
    case unknown = 0
    /// 32-bit floats, as every feature print here.
    case float = 1
    /// 64-bit floats.
    case double = 2
}

/// Computes an image's feature print, as Vision's `VNGenerateImageFeaturePrintRequest`, with the engine
/// of ``GenerateImageFeaturePrintRequest`` (the model zoo's embedder, scaled to unit length); its result
/// is one ``VNFeaturePrintObservation``.
public final class VNGenerateImageFeaturePrintRequest: VNImageBasedRequest {
    /// Vision's revisions 1 to 2, all served by the one engine.
    override public class var supportedRevisions: IndexSet { IndexSet(1...2) }

    /// How the image meets the model's square input; `.scaleFill` by default, as in Vision.
    public var imageCropAndScaleOption: VNImageCropAndScaleOption = .scaleFill

    override func observations(in image: VisionImage, sequence: SequenceRequestHandler?) throws -> [VNObservation] {
        var request = GenerateImageFeaturePrintRequest()
        request.imageCropAndScaleOption = imageCropAndScaleOption
        return [VNFeaturePrintObservation(try request.perform(on: imageInRegionOfInterest(image)))]
    }
}

/// An image's feature print, as Vision's `VNFeaturePrintObservation`: a unit-length vector of floats.
/// Prints of like images lie close: compare them with ``computeDistance(_:to:)``.
public final class VNFeaturePrintObservation: VNObservation, @unchecked Sendable {
    /// The print behind the observation.
    private let print: FeaturePrintObservation

    init(_ print: FeaturePrintObservation) {
        self.print = print
        super.init(uuid: print.uuid, confidence: print.confidence)
    }

    /// The type of the values: `.float`.
    public var elementType: VNElementType { .float }
    /// The number of values.
    public var elementCount: Int { print.elementCount }
    /// The values' bytes: `elementCount` 32-bit floats in the machine's byte order.
    public var data: Data { print.data.withUnsafeBytes { Data($0) } }

    /// Writes the Euclidean distance between this print and `featurePrint` to `outDistance`: 0 for the
    /// same picture, up to 2. Prints of different lengths throw ``VNErrorCode/invalidArgument``.
    public func computeDistance(_ outDistance: UnsafeMutablePointer<Float>, to featurePrint: VNFeaturePrintObservation) throws {
        do {
            outDistance.pointee = try print.computeDistance(to: featurePrint.print)
        } catch {
            throw NSError.vision(error)
        }
    }
}
