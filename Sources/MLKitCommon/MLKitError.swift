import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// The domain of the `NSError`s that ML Kit detectors report, in their completion or thrown by
/// `results(in:)`.
public let mlKitErrorDomain = "com.google.mlkit"

/// The codes of ML Kit errors: the status codes of ML Kit's `MlKitException`, which are gRPC's.
public enum MLKitErrorCode: Int, Sendable, CaseIterable {
    /// The work was stopped, or a stream frame was dropped because another was in flight.
    case cancelled = 1
    /// A failure no other code describes.
    case unknown = 2
    /// The image or an option cannot be used: undecodable, empty, too large, out of range.
    case invalidArgument = 3
    /// The model file (or a file it needs) is missing, or a remote model is not downloaded.
    case notFound = 5
    /// The detector was closed, or the call does not fit its mode.
    case failedPrecondition = 9
    /// The model or an engine failed while running.
    case `internal` = 13
    /// A library the detector needs (Tesseract, zxing-cpp, LiteRT) is not installed.
    case unavailable = 14
    /// The model cannot run with LiteRT, or lacks the outputs the detector needs.
    case modelIncompatibleWithTFLite = 100
}

extension NSError {
    /// `error` as ML Kit reports it: domain ``mlKitErrorDomain``, the code that fits, the error's
    /// description as `localizedDescription` and the error itself under `NSUnderlyingErrorKey`. An ML Kit
    /// error is kept as it is.
    package static func mlKit(_ error: any Error) -> NSError {
        reporting(error, inDomain: mlKitErrorDomain) { MLKitErrorCode($0).rawValue }
    }
}

extension MLKitErrorCode {
    /// The code for one of SwiftVision's errors.
    init(_ error: any Error) {
        switch error {
        case is ImageError, is VideoError: self = .invalidArgument
        case is ModelManagerError: self = .notFound
        case is LiteRTError, is MetadataError: self = .modelIncompatibleWithTFLite
        case let error as ClassificationError: self = error.isInvalidOption ? .invalidArgument : .notFound
        case let error as VisionTaskError:
            switch error {
            case .invalidOption, .unsupportedLanguage, .nonIncreasingTimestamp: self = .invalidArgument
            case .tesseractNotInstalled: self = .unavailable
            case .engineFailed: self = .internal
            case .runningModeMismatch, .closed: self = .failedPrecondition
            case .frameDropped, .cancelled: self = .cancelled
            }
        default: self = .unknown
        }
    }
}
