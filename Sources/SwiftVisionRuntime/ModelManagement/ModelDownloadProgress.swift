import Foundation
import SwiftVisionCore

/// How far a model download has come.
public struct ModelDownloadProgress: Sendable, Hashable {
    /// Bytes of the model file in place, counting those kept from an interrupted earlier transfer.
    public var completedBytes: Int64
    /// The file's size, when the server tells it.
    public var totalBytes: Int64?

    /// Progress of `completedBytes` out of `totalBytes`, nil when the size is unknown.
    public init(completedBytes: Int64, totalBytes: Int64?) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// 0–1, or nil when the size is unknown.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}

extension Notification.Name {
    /// Posted by ``ModelManager`` when a model is downloaded and in place (ML Kit's `.mlkitModelDownloadDidSucceed`).
    public static let modelDownloadDidSucceed = Notification.Name("SwiftVisionModelDownloadDidSucceed")
    /// Posted by ``ModelManager`` when a download fails (ML Kit's `.mlkitModelDownloadDidFail`).
    public static let modelDownloadDidFail = Notification.Name("SwiftVisionModelDownloadDidFail")
    /// ML Kit's name for ``modelDownloadDidSucceed``: the same notification.
    public static let mlkitModelDownloadDidSucceed = modelDownloadDidSucceed
    /// ML Kit's name for ``modelDownloadDidFail``: the same notification.
    public static let mlkitModelDownloadDidFail = modelDownloadDidFail
}

/// Keys of the `userInfo` of download notifications, as ML Kit's `ModelDownloadUserInfoKey`.
public enum ModelDownloadUserInfoKey: String, Sendable {
    /// The ``RemoteModel``.
    case remoteModel
    /// The error of a failed download.
    case error
}
