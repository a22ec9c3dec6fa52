import Foundation
import SwiftVisionCore
import SwiftVisionTasks

/// A Core Video pixel format code, as Apple's `OSType`.
public typealias OSType = UInt32
/// 8 bits a pixel, one channel (Core Video's `'L008'`): Vision's default mask format.
public let kCVPixelFormatType_OneComponent8: OSType = 0x4C30_3038
/// A 16-bit float a pixel, one channel (Core Video's `'L00h'`).
public let kCVPixelFormatType_OneComponent16Half: OSType = 0x4C30_3068
/// A 32-bit float a pixel, one channel (Core Video's `'L00f'`).
public let kCVPixelFormatType_OneComponent32Float: OSType = 0x4C30_3066

/// Produces a mask of the people in an image, as Vision's `VNGeneratePersonSegmentationRequest`, with the
/// engine of ``GeneratePersonSegmentationRequest`` (MediaPipe's selfie segmentation model); its result is
/// one ``VNPixelBufferObservation``. In a ``VNSequenceRequestHandler`` the masks of successive frames are
/// smoothed, as Vision does for video.
public final class VNGeneratePersonSegmentationRequest: VNImageBasedRequest {
    /// Speed against detail, as Vision's `VNGeneratePersonSegmentationRequest.QualityLevel`: the size of
    /// the mask (``GeneratePersonSegmentationRequest/QualityLevel``).
    public typealias QualityLevel = GeneratePersonSegmentationRequest.QualityLevel

    /// Speed against detail; `.accurate` by default, as in Vision.
    public var qualityLevel: QualityLevel = .accurate
    /// The mask's pixel format, as Vision's: `kCVPixelFormatType_OneComponent8` (the default),
    /// `kCVPixelFormatType_OneComponent16Half` or `kCVPixelFormatType_OneComponent32Float`. The
    /// observation's mask holds float confidences whichever is chosen; another format fails the request
    /// with ``VNErrorCode/invalidOption``, as in Vision.
    public var outputPixelFormat: OSType = kCVPixelFormatType_OneComponent8

    override func observations(in image: VisionImage, sequence: SequenceRequestHandler?) throws -> [VNObservation] {
        let formats = [kCVPixelFormatType_OneComponent8, kCVPixelFormatType_OneComponent16Half, kCVPixelFormatType_OneComponent32Float]
        guard formats.contains(outputPixelFormat) else {
            throw VisionTaskError.invalidOption("outputPixelFormat \(outputPixelFormat) is not a one-component format")
        }
        var request = GeneratePersonSegmentationRequest()
        request.qualityLevel = qualityLevel
        return [VNPixelBufferObservation(try results(of: request, on: imageInRegionOfInterest(image), sequence: sequence))]
    }
}

/// An image a request produced, as Vision's `VNPixelBufferObservation`: here the person mask. Linux has
/// no `CVPixelBuffer`, so ``pixelBuffer`` is SwiftVision's mask: a confidence 0–1 a pixel, upright
/// (docs/porting.md).
public final class VNPixelBufferObservation: VNObservation, @unchecked Sendable {
    /// The mask: `pixelBuffer.confidence(atX:y:)`, `width`, `height`, `confidences` row after row from the top.
    public let pixelBuffer: SegmentationMask
    /// The name of the model output the image came from; nil, as for Vision's person masks.
    public let featureName: String?

    init(_ mask: PixelBufferObservation) {
        pixelBuffer = mask.mask
        featureName = nil
        super.init(uuid: mask.uuid, confidence: mask.confidence)
    }
}
