import Foundation
import SwiftVisionCore

/// Why a custom model could not be found or downloaded.
public enum ModelManagerError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// A local model's file does not exist.
    case fileNotFound(path: String)
    /// A remote model is used before it was downloaded.
    case notDownloaded(name: String)
    /// A remote model's name cannot be a file name.
    case invalidName(String)
    /// The server answered with an HTTP error status.
    case httpStatus(Int, url: URL)
    /// The transfer broke off; the bytes received so far are kept and the next download resumes.
    case transferFailed(reason: String)
    /// The server's file is larger than `limit` bytes, as it declared (`declared`) or as its body showed
    /// (nil); nothing of it was kept.
    case tooLarge(limit: Int64, declared: Int64?)
    /// The downloaded file's SHA-256 is not the expected one; the file was discarded.
    case checksumMismatch(expected: String, actual: String)
    /// The downloaded file is not a usable `.tflite` model; it was discarded.
    case invalidModel(reason: String)
    /// The model's address, or one it redirects to, is neither `https` nor `http` on this machine.
    case insecureURL(URL)
    /// A model without an address is downloaded while no model host is set (``ModelManager/modelHost``).
    case noModelHost(name: String)

    /// A one-line explanation of the error, with what to do about it where that helps.
    public var description: String {
        switch self {
        case .fileNotFound(let path): "no model file at \(path)"
        case .notDownloaded(let name):
            "the remote model \(name) is not downloaded; download it with ModelManager or `swiftvision models download`"
        case .invalidName(let name): "invalid model name \"\(name)\": use letters, digits, '.', '_' and '-'"
        case .httpStatus(401, let url):
            "the server answered HTTP status 401 for \(url.absoluteString): a model host needs its token "
                + "(SWIFTVISION_MODEL_TOKEN or ModelManager.modelHost)"
        case .httpStatus(let status, let url):
            "the server answered HTTP status \(status) for \(url.absoluteString)"
        case .transferFailed(let reason): "the download broke off: \(reason); download again to resume"
        case .tooLarge(let limit, let declared?):
            "the server's file is \(declared) bytes, more than the \(limit) bytes (\(limit >> 20) MiB) a model may be; "
                + "nothing of it was kept"
        case .tooLarge(let limit, nil):
            "the server's file runs past the \(limit) bytes (\(limit >> 20) MiB) a model may be; what came was discarded"
        case .checksumMismatch(let expected, let actual):
            "the downloaded model has SHA-256 \(actual), expected \(expected); it was discarded"
        case .invalidModel(let reason): "the downloaded file is not a usable model (\(reason)); it was discarded"
        case .insecureURL(let url):
            "models are downloaded over https (or http from this machine only), not from \(url.absoluteString)"
        case .noModelHost(let name):
            "the model \(name) comes from a model host, and none is set: set SWIFTVISION_MODEL_HOST "
                + "(and SWIFTVISION_MODEL_TOKEN), or ModelManager.modelHost"
        }
    }

    /// The same as ``description``.
    public var errorDescription: String? { description }
}
