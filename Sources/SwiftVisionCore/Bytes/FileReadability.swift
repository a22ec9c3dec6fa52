import Foundation

/// Why a path cannot be read as a file, in the words image and video errors share: "no such file", "it is
/// a folder, not a file", "the file is empty" (where no bytes cannot be what is wanted) or the system's reason.
package enum FileReadability {
    /// Why `path` cannot be read as a file, found with `stat` before anything opens it; nil when it names a
    /// file, pipe or device. With `refusingEmpty`, a regular file of no bytes is refused too.
    package static func problem(atPath path: String, refusingEmpty: Bool = false) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return systemReason(errno) }
        return problem(with: status, refusingEmpty: refusingEmpty)
    }

    /// Why what `status` describes cannot be read as a file: a folder, or with `refusingEmpty` a regular
    /// file of no bytes; nil otherwise.
    package static func problem(with status: stat, refusingEmpty: Bool = false) -> String? {
        switch status.st_mode & S_IFMT {
        case S_IFDIR: "it is a folder, not a file"
        case S_IFREG where refusingEmpty && status.st_size == 0: "the file is empty"
        default: nil
        }
    }

    /// The system's reason for the error number `code`: "no such file" for `ENOENT`, else `strerror`'s words.
    package static func systemReason(_ code: Int32) -> String {
        code == ENOENT ? "no such file" : String(cString: strerror(code))
    }

    /// The first `count` bytes (fewer in a shorter file) of the file at `url`; nil when it cannot be read.
    package static func firstBytes(of url: URL, count: Int) -> Data? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: count)
    }
}
