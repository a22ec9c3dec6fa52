import SwiftVisionCore

/// When a model may be downloaded, as ML Kit's `ModelDownloadConditions`.
///
/// Linux honours neither condition; both are kept so that ML Kit code compiles unchanged:
/// - `allowsCellularAccess`: Linux has no notion of a cellular connection. The value is ignored, so a
///   download uses whatever connection the machine has.
/// - `allowsBackgroundDownloading`: a process has no background state and there is no system
///   download service to hand the transfer to. A download runs while the process runs, whatever the
///   value, and stops with it; the next download resumes it.
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
