import Foundation
import Logging

/// The process's limit on open files, checked against the connection cap: at the limit `accept` fails,
/// so the service raises its soft limit towards the hard one to fit every connection it may hold, and
/// lowers the cap (saying so) when even the hard limit is too low.
enum FileDescriptorLimit {
    /// Files the process needs besides connections: models, packed weights, libraries, logs.
    static let reserve = 128

    /// The connection cap that fits the open-file limit, after raising the soft limit as far as needed.
    static func connections(fitting wanted: Int, logger: Logger) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return wanted }
        let needed = rlim_t(wanted + VisionService.connectionMargin + reserve)
        if limit.rlim_cur < needed {
            limit.rlim_cur = min(needed, limit.rlim_max)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 { _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        }
        guard limit.rlim_cur < needed else { return wanted }
        let fitting = max(1, Int(limit.rlim_cur) - VisionService.connectionMargin - reserve)
        logger.warning(
            "the open-file limit (\(limit.rlim_cur)) holds \(fitting) connections, not --max-connections \(wanted): serving at most \(fitting)")
        return fitting
    }
}
