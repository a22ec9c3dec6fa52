import SwiftVisionCore

/// When a model may be downloaded, as ML Kit's `ModelDownloadConditions`.
///
/// On Linux there is no cellular or background state: `allowsCellularAccess` is handed to
/// URLSession, which ignores it there, and a download runs while the process runs whatever
/// `allowsBackgroundDownloading` says. Both are kept so that ML Kit code compiles unchanged.
public struct ModelDownloadConditions: Sendable, Hashable {
    /// Whether the download may use a cellular connection.
    public var allowsCellularAccess: Bool
    /// Whether the download may go on while the application is in the background.
    public var allowsBackgroundDownloading: Bool

    /// Conditions that allow cellular access and no background downloading, as ML Kit's defaults.
    public init(allowsCellularAccess: Bool = true, allowsBackgroundDownloading: Bool = false) {
        self.allowsCellularAccess = allowsCellularAccess
        self.allowsBackgroundDownloading = allowsBackgroundDownloading
    }
}
