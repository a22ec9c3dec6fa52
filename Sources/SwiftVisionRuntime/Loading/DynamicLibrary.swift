import Foundation

/// A C library opened with `dlopen` when first needed, instead of linked, whose functions are bound by name.
/// It stays loaded for the life of the process.
package struct DynamicLibrary {
    private let handle: UnsafeMutableRawPointer
    private let failure: (String) -> any Error

    /// Opens `path` (a file name the dynamic loader searches for, or a path) with every symbol resolved now;
    /// `failure` makes the error thrown from a reason (the loader's message, or a missing function).
    package init(path: String, failure: @escaping (String) -> any Error) throws {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw failure(dlerror().map { String(cString: $0) } ?? "dlopen failed")
        }
        self.handle = handle
        self.failure = failure
    }

    /// The function `name` as the C function type `Function`; throws "missing function `name`" when absent.
    package func function<Function>(_ name: String) throws -> Function {
        guard let symbol = dlsym(handle, name) else { throw failure("missing function \(name)") }
        return unsafeBitCast(symbol, to: Function.self)
    }
}
