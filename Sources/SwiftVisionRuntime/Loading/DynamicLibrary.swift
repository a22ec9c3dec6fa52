import Foundation

/// A C library opened with `dlopen` when first needed, instead of linked, whose functions are bound by name.
/// It stays loaded for the life of the process.
package struct DynamicLibrary {
    private let handle: UnsafeMutableRawPointer
    private let failure: (String) -> any Error

    /// How the symbols that a library (and the libraries it brings) uses are bound.
    package enum Binding {
        /// All of them as it opens: one missing fails the opening.
        case immediate
        /// As `immediate`, and the library's own symbols join the process's global scope, where the libraries
        /// opened after it without deep binding look first: its definitions take the place of theirs.
        case immediateGlobal
        /// Each on its first call, looked up in the process's global scope before the library and its
        /// dependencies.
        case lazy
        /// Each on its first call, looked up in the library and its own dependencies before the process's:
        /// a large library opened into a process that already has many (Swift's, ICU, OpenCV) then binds
        /// only what it calls, without searching theirs. Deep binding (`RTLD_DEEPBIND`) is left out where a
        /// sanitizer's runtime is loaded: they refuse it.
        case lazyOwnFirst
    }

    /// Opens `path` (a file name the dynamic loader searches for, or a path), its symbols bound as `binding`
    /// says; `failure` makes the error thrown from a reason (the loader's message, or a missing function).
    package init(path: String, binding: Binding = .immediate, failure: @escaping (String) -> any Error) throws {
        let mode: Int32 =
            switch binding {
            case .immediate: RTLD_NOW | RTLD_LOCAL
            case .immediateGlobal: RTLD_NOW | RTLD_GLOBAL
            case .lazy: RTLD_LAZY | RTLD_LOCAL
            case .lazyOwnFirst: RTLD_LAZY | RTLD_LOCAL | (Self.sanitizerLoaded ? 0 : RTLD_DEEPBIND)
            }
        guard let handle = dlopen(path, mode) else {
            throw failure(dlerror().map { String(cString: $0) } ?? "dlopen failed")
        }
        self.handle = handle
        self.failure = failure
    }

    /// Where to look for `fileName`, one of the package's own libraries: `$variable` alone when set, else next to
    /// the executable (where `swift build` puts it), then on the dynamic loader's search path.
    package static func candidates(fileName: String, variable: String) -> [String] {
        if let chosen = ProcessInfo.processInfo.environment[variable], !chosen.isEmpty {
            return [chosen]
        }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map(URL.init(fileURLWithPath:))
        return (executable.map { [$0.deletingLastPathComponent().appendingPathComponent(fileName).path] } ?? []) + [fileName]
    }

    /// Whether a sanitizer's runtime (address, thread, leak, undefined behaviour) is in the process: each
    /// exports this function.
    private static var sanitizerLoaded: Bool { dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__sanitizer_print_stack_trace") != nil }

    /// Checks that the library was built from the same declarations as this program: its function `symbol`
    /// (taking nothing, answering C text) must answer `expected`, the same description written by this
    /// program's compilation of the library's header. Throws, naming `fileName`, when the function is missing
    /// or answers other text, so that no other function of a library built from other sources is called.
    package func checkInterface(symbol: String, expected: String, fileName: String) throws {
        let interface: @convention(c) () -> UnsafePointer<CChar>?
        do {
            interface = try function(symbol)
        } catch {
            throw failure("\(fileName) lacks \(symbol): it is from another version of SwiftVision")
        }
        guard let answered = interface(), String(cString: answered) == expected else {
            throw failure(
                "\(fileName) was built from other sources than this executable (its functions or types differ); build"
                    + " both again from the same sources, for example with `swift build`, which builds every product")
        }
    }

    /// The function `name` as the C function type `Function`; throws "missing function `name`" when absent.
    package func function<Function>(_ name: String) throws -> Function {
        guard let symbol = dlsym(handle, name) else { throw failure("missing function \(name)") }
        return unsafeBitCast(symbol, to: Function.self)
    }
}
