import Foundation

/// The one temporary folder of a test process, `swiftvision-tests-PID` in the system's temporary folder, that
/// every fixture written to disk goes under (``Fixtures/temporaryDirectory()``, the scene fixtures). It is removed
/// when the process exits; one left by a process that died first (a crash, a kill at a timeout) is removed by the
/// next test process to start, so that runs leave nothing behind. Before, each folder was named on its own and
/// none was removed: 56 of them had gathered in /tmp over a day's runs.
public enum ScratchFolder {
    /// The prefix of every process's folder; the process ID follows it.
    static let prefix = "swiftvision-tests-"

    /// This process's folder, made on first use, after removing those of processes that are gone.
    public static let root: URL = {
        let parent = FileManager.default.temporaryDirectory
        removeAbandoned(in: parent)
        let root = parent.appendingPathComponent("\(prefix)\(getpid())")
        try? FileManager.default.removeItem(at: root)
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchFolder.root) }
        return root
    }()

    /// Removes the folders in `parent` named for a process that no longer runs; those of running processes
    /// (other test runs at the same time) are kept.
    public static func removeAbandoned(in parent: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH {
                try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
            }
        }
    }
}
