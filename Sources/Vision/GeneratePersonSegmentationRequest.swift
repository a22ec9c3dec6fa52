import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// Produces a mask of the people in an image, as Vision's `GeneratePersonSegmentationRequest`, with
/// MediaPipe's selfie segmentation model. In a ``SequenceRequestHandler`` successive frames form a
/// stream whose masks are smoothed from frame to frame, as Vision recommends for video.
public struct GeneratePersonSegmentationRequest: TaskBackedRequest {
    /// Speed against detail. Every level runs the same 256×256 model (Vision runs a larger model for
    /// `.accurate`); they differ in the size of the mask and the work spent scaling it.
    public enum QualityLevel: String, Sendable, CaseIterable, Codable {
        /// The model's own 256×256 mask, unscaled (ML Kit's raw-size mask): fastest, for live video.
        case fast
        /// The mask scaled bilinearly to the image's aspect ratio with its longer side at most
        /// ``GeneratePersonSegmentationRequest/balancedMaximumSide`` (960) pixels.
        case balanced
        /// The mask scaled bilinearly to the image's full size.
        case accurate
    }

    /// The longer side of a `.balanced` mask, at most.
    public static let balancedMaximumSide = 960

    /// Speed against detail; Vision's default is `.accurate`.
    public var qualityLevel: QualityLevel = .accurate
    /// Called with the request's results or error each time a handler performs it (Vision's
    /// `completionHandler`); nil for none.
    public var completionHandler: CompletionHandler?

    /// The task the request runs.
    public typealias Job = SegmentTask
    /// What the request produces: the mask of the people.
    public typealias Result = PixelBufferObservation

    /// A request at `.accurate` quality.
    public init() {}

    /// Requests of the same quality share a sequence.
    public var sequenceKey: AnyHashable { qualityLevel }

    /// The size of the mask this request gives for an image of `imageSize`.
    public func maskSize(forImageSize imageSize: CGSize) -> (width: Int, height: Int) {
        let (width, height) = (max(1, Int(imageSize.width)), max(1, Int(imageSize.height)))
        switch qualityLevel {
        case .fast: return (256, 256)
        case .accurate: return (width, height)
        case .balanced:
            let scale = min(1, Double(Self.balancedMaximumSide) / Double(max(width, height)))
            return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
        }
    }

    /// `.accurate` asks the task for the image-size mask; the others take the model-size mask and
    /// scale it (`.balanced`) or not (`.fast`).
    public var taskOptions: SegmentTask.Options {
        var options = SegmentTask.Options()
        options.rawSize = qualityLevel != .accurate
        return options
    }

    /// The mask of the people in the output, at the quality level's size.
    public func results(from output: SegmentTask.Output, imageSize: CGSize) throws -> PixelBufferObservation {
        let mask = output.mask
        guard qualityLevel == .balanced else { return try PixelBufferObservation(mask: mask) }
        let size = maskSize(forImageSize: imageSize)
        return try PixelBufferObservation(mask: mask.resized(width: size.width, height: size.height))
    }
}

/// An image produced by a request, as Vision's `PixelBufferObservation`: here a person mask, as
/// 8-bit gray pixels (Vision's default `kCVPixelFormatType_OneComponent8`, 255 = person) and as
/// float confidences (`kCVPixelFormatType_OneComponent32Float`).
public struct PixelBufferObservation: VisionObservation {
    /// Identifies the observation (Vision's `uuid`): new for each observation made, kept by its copies.
    public let uuid: UUID
    /// The mask as 8-bit gray pixels, upright: round(confidence × 255), 255 = person.
    public let pixelBuffer: PixelBuffer
    /// The mask's float confidences.
    public let mask: SegmentationMask

    init(mask: SegmentationMask) throws {
        uuid = UUID()
        self.mask = mask
        pixelBuffer = try mask.plane.grayBuffer()
    }

    /// 1: the mask holds a confidence per pixel instead (Vision's value for such observations).
    public var confidence: Float { 1 }

    /// The mask's width in pixels.
    public var width: Int { mask.width }
    /// The mask's height in pixels.
    public var height: Int { mask.height }
    /// The confidences 0–1, row after row from the top (Vision's 32-bit float output format).
    public var floatValues: [Float] { mask.confidences }
}
