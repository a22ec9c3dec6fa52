import CCurl
import Foundation

/// The functions of libcurl's easy API, bound with `dlopen` and `dlsym` on the first model download, so that
/// a process that downloads nothing never loads libcurl and the TLS, HTTP/2, SSH and LDAP libraries it links.
/// Immutable after loading, so it is safe to share.
final class CurlLibrary: Sendable {
    /// The file name the dynamic loader looks up: the library of Debian's `libcurl4` package.
    static let defaultName = "libcurl.so.4"

    let easyInit: CurlEasyInitFunction
    let easyCleanup: CurlEasyCleanupFunction
    /// A variadic C function, which Swift sees as an opaque pointer: an immutable function address.
    nonisolated(unsafe) let easySetopt: CurlEasySetoptFunction
    let easyPerform: CurlEasyPerformFunction
    let easyStrerror: CurlEasyStrerrorFunction
    let slistAppend: CurlSlistAppendFunction
    let slistFreeAll: CurlSlistFreeAllFunction

    /// The library of this process, loaded and initialised on first use.
    static func shared() throws -> CurlLibrary {
        try loaded.get()
    }

    private static let loaded = Result { try CurlLibrary(name: defaultName) }

    /// Loads the library `name` (a file name the dynamic loader searches for, or a path), binds its functions
    /// and initialises it; throws ``ModelManagerError/transferFailed(reason:)`` when it is missing or unusable.
    init(name: String) throws {
        let failure = { (reason: String) in
            ModelManagerError.transferFailed(reason: "cannot use \(name) (\(reason)); install Debian's libcurl4 package")
        }
        let library = try DynamicLibrary(path: name, failure: failure)
        easyInit = try library.function("curl_easy_init")
        easyCleanup = try library.function("curl_easy_cleanup")
        easySetopt = try library.function("curl_easy_setopt")
        easyPerform = try library.function("curl_easy_perform")
        easyStrerror = try library.function("curl_easy_strerror")
        slistAppend = try library.function("curl_slist_append")
        slistFreeAll = try library.function("curl_slist_free_all")
        let globalInit: CurlGlobalInitFunction = try library.function("curl_global_init")
        let code = globalInit(CURL_GLOBAL_ALL)
        guard code == 0 else { throw failure("curl_global_init: \(message(code))") }
    }

    /// libcurl's description of the error `code`.
    func message(_ code: CURLcode) -> String {
        easyStrerror(code).map { String(cString: $0) } ?? "libcurl error \(code)"
    }
}
