import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// The domain of the `NSError`s that `VN…` requests report, to their completion handlers and as the error
/// a handler's `perform` throws: Vision's `VNErrorDomain`, `com.apple.vis`.
public let VNErrorDomain = "com.apple.vis"

/// The codes of Vision's errors, as Vision's `VNErrorCode`, with Apple's values.
public enum VNErrorCode: Int, Sendable, CaseIterable {
    /// A Create ML training error; never reported here.
    case turiCoreErrorCode = -1
    /// No error.
    case OK = 0
    /// The request was cancelled, or its stream frame was dropped.
    case requestCancelled = 1
    /// The image's data is not an image in a format that can be decoded (JPEG, PNG, WebP, BMP, TIFF, HEIF, AVIF, GIF).
    case invalidFormat = 2
    /// A model or an engine (zxing-cpp, Tesseract, OpenCV) failed while running.
    case operationFailed = 3
    /// A value lies outside its array or outside 0–1.
    case outOfBoundsError = 4
    /// A request's option is invalid: out of range, or a language or symbology that cannot be served.
    case invalidOption = 5
    /// A file (the image or a model) cannot be read.
    case ioError = 6
    /// A required option is missing.
    case missingOption = 7
    /// The request cannot be answered by its model.
    case notImplemented = 8
    /// An internal error.
    case internalError = 9
    /// Not enough memory.
    case outOfMemory = 10
    /// A failure no other code describes.
    case unknownError = 11
    /// The call does not fit the state of the request (a closed or mismatched runner).
    case invalidOperation = 12
    /// The image is invalid: no pixels, or more than SwiftVision's limit.
    case invalidImage = 13
    /// An argument is invalid, such as two feature prints of different lengths.
    case invalidArgument = 14
    /// The model is incompatible with the request.
    case invalidModel = 15
    /// The request's revision is not supported.
    case unsupportedRevision = 16
    /// The data is not available.
    case dataUnavailable = 17
    /// A timestamp is missing.
    case timeStampNotFound = 18
    /// The request cannot be served on this machine: a library it needs is not installed.
    case unsupportedRequest = 19
    /// The request took too long.
    case timeout = 20
    /// The compute stage is not supported.
    case unsupportedComputeStage = 21
    /// The compute device is not supported.
    case unsupportedComputeDevice = 22
}

extension VNErrorCode {
    /// The code that describes one of SwiftVision's errors.
    init(_ error: any Error) {
        switch error {
        case let error as ImageError:
            switch error {
            case .unreadableFile, .unwritableFile: self = .ioError
            case .emptyData, .unknownFormat, .unsupportedFormat, .truncated, .corrupt: self = .invalidFormat
            case .invalidDimensions, .tooLarge, .invalidBuffer: self = .invalidImage
            case .invalidRegion: self = .invalidOption
            case .processingFailed: self = .operationFailed
            }
        case is VideoError, is ModelManagerError: self = .ioError
        case is LiteRTError, is MetadataError: self = .invalidModel
        case is EmbeddingError: self = .invalidArgument
        case let error as ClassificationError: self = error.isInvalidOption ? .invalidOption : .ioError
        case let error as VisionTaskError:
            switch error {
            case .invalidOption, .unsupportedLanguage: self = .invalidOption
            case .tesseractNotInstalled: self = .unsupportedRequest
            case .engineFailed: self = .operationFailed
            case .nonIncreasingTimestamp: self = .invalidArgument
            case .runningModeMismatch, .closed: self = .invalidOperation
            case .frameDropped, .cancelled: self = .requestCancelled
            }
        default: self = .unknownError
        }
    }
}

extension NSError {
    /// A Vision error with `code` and `description`.
    static func vision(_ code: VNErrorCode, _ description: String) -> NSError {
        NSError(domain: VNErrorDomain, code: code.rawValue, userInfo: [NSLocalizedDescriptionKey: description])
    }

    /// `error` as Vision reports it: domain ``VNErrorDomain``, the code that fits, the error's description
    /// as `localizedDescription` and the error itself under `NSUnderlyingErrorKey`. A Vision error is kept
    /// as it is.
    static func vision(_ error: any Error) -> NSError {
        reporting(error, inDomain: VNErrorDomain) { VNErrorCode($0).rawValue }
    }
}
