import Foundation
import SwiftVisionCore
import SwiftVisionRuntime
import SwiftVisionTasks

/// The domain of the `NSError`s that MediaPipe task classes throw or hand to their live-stream delegates:
/// MediaPipe's `MPPTasksErrorDomain`, `com.google.mediapipe.tasks` (declared in MediaPipe's `MPPCommonUtils.h`).
public let MPPTasksErrorDomain = "com.google.mediapipe.tasks"

/// The codes of MediaPipe's errors, as MediaPipe's `MPPTasksErrorCode` (`TasksErrorCode` in Swift,
/// `MPPCommon.h`): the status codes of the task library, with MediaPipe's values.
public enum TasksErrorCode: UInt, Sendable, CaseIterable {
    /// The work was stopped, or a live-stream frame was dropped while another was processed.
    case cancelledError = 1
    /// A failure no other code describes.
    case unknownError = 2
    /// An option, an image, a timestamp or the call's running mode cannot be used, or the task was closed.
    case invalidArgumentError = 3
    /// The work ran past its deadline; never reported here (a passed deadline reads as cancelled).
    case deadlineExceededError = 4
    /// The model file (or a file it needs) is missing.
    case notFoundError = 5
    /// What was to be made exists already; never reported here.
    case alreadyExistsError = 6
    /// The caller may not do what it asked: a model address that is neither `https` nor local.
    case permissionDeniedError = 7
    /// A resource ran out: a downloaded model is larger than the limit.
    case resourceExhaustedError = 8
    /// The system is not in the state the call needs; never reported here (a closed task is an invalid argument,
    /// as in MediaPipe).
    case failedPreconditionError = 9
    /// The work was aborted; never reported here.
    case abortedError = 10
    /// A value was outside its range; never reported here.
    case outOfRangeError = 11
    /// The call is not implemented; never reported here.
    case unimplementedError = 12
    /// The model or an engine failed while running.
    case internalError = 13
    /// A library the task needs (LiteRT) is not installed, or a model download failed.
    case unavailableError = 14
    /// A downloaded model's bytes are not the expected ones.
    case dataLossError = 15
    /// The request lacks valid credentials; never reported here.
    case unauthenticatedError = 16
}

extension TasksErrorCode {
    /// The code for one of SwiftVision's errors.
    init(_ error: any Error) {
        switch error {
        case is ImageError, is VideoError, is MetadataError, is EmbeddingError: self = .invalidArgumentError
        case let error as ClassificationError: self = error.isInvalidOption ? .invalidArgumentError : .notFoundError
        case let error as ModelManagerError:
            switch error {
            case .fileNotFound, .notDownloaded, .noModelHost: self = .notFoundError
            case .invalidName, .invalidModel: self = .invalidArgumentError
            case .insecureURL: self = .permissionDeniedError
            case .httpStatus, .transferFailed: self = .unavailableError
            case .tooLarge: self = .resourceExhaustedError
            case .checksumMismatch: self = .dataLossError
            }
        case let error as LiteRTError:
            switch error {
            case .runtimeNotInstalled, .runtimeUnusable: self = .unavailableError
            case .modelNotFound: self = .notFoundError
            case .incompatibleModel: self = .invalidArgumentError
            case .status: self = .internalError
            }
        case let error as VisionTaskError:
            switch error {
            case .invalidOption, .unsupportedLanguage, .nonIncreasingTimestamp, .runningModeMismatch, .closed:
                self = .invalidArgumentError
            case .tesseractNotInstalled: self = .unavailableError
            case .engineFailed: self = .internalError
            case .frameDropped, .cancelled: self = .cancelledError
            }
        default: self = .unknownError
        }
    }
}

extension NSError {
    /// `error` as MediaPipe reports it: domain ``MPPTasksErrorDomain``, the ``TasksErrorCode`` that fits,
    /// the error's description as `localizedDescription` and the error itself under `NSUnderlyingErrorKey`.
    /// A MediaPipe error is kept as it is.
    static func mediaPipe(_ error: any Error) -> NSError {
        reporting(error, inDomain: MPPTasksErrorDomain) { Int(TasksErrorCode($0).rawValue) }
    }
}
