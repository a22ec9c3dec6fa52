import Foundation

extension NSError {
    /// `error` as a framework's `NSError` reports it: in `domain`, with the code `code` gives it, its
    /// description as `localizedDescription` and the error itself under `NSUnderlyingErrorKey`. An error
    /// already in `domain` is kept as it is. The ported modules (ML Kit, Vision, MediaPipe) each report
    /// through this with their own domain and codes.
    package static func reporting(_ error: any Error, inDomain domain: String, code: (any Error) -> Int) -> NSError {
        if (error as NSError).domain == domain { return error as NSError }
        return NSError(
            domain: domain, code: code(error),
            userInfo: [NSLocalizedDescriptionKey: String(describing: error), NSUnderlyingErrorKey: error])
    }
}
