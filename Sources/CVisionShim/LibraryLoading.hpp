// Opening the shim's libraries on first use and calling into them (media_library.cpp, imaging_library.cpp).
#ifndef SWIFTVISION_LIBRARYLOADING_HPP
#define SWIFTVISION_LIBRARYLOADING_HPP

#include "ShimSupport.hpp"

#include <dlfcn.h>

#include <string>

namespace shim {

/// Opens `fileName` from $`variable` when set, else from the folder of the executable or library this shim
/// is linked into (SwiftPM puts the products next to the executables it builds), else from the dynamic
/// linker's search path. On failure returns nullptr and sets `failure`: `purpose` could not be loaded, with
/// what each attempt said.
void *openLibrary(const char *fileName, const char *variable, const char *product, const char *purpose,
                  std::string &failure);

/// Opens the system library `soname` (a Debian package's, from the linker's search path); on failure returns
/// nullptr and sets `failure`: `purpose`, then what the dynamic linker said.
void *openSystemLibrary(const char *soname, const std::string &purpose, std::string &failure);

/// Looks `name` up in `handle`; a name not found is added to `missing`.
template <typename Function> void resolve(void *handle, const std::string &name, Function &function, std::string &missing) {
    function = reinterpret_cast<Function>(dlsym(handle, name.c_str()));
    if (function == nullptr) missing += missing.empty() ? name : ", " + name;
}

/// Checks a library whose functions were resolved: when `missing` names functions, or its interface (the
/// function `interfaceSymbol` returns, ``SV_INTERFACE_ENTRY`` over its function list) differs from `expected`, the
/// shim's own, closes `handle` and sets `failure` to say that it is from another version or build. Calling a
/// library from other sources would pass arguments its functions do not take.
bool checkLibrary(void *handle, const char *fileName, const char *interfaceSymbol, const char *expected,
                  std::string &missing, std::string &failure);

/// Calls `body` with `library` (which has `failure` and `lastError`), or fails with the reason it could not be
/// loaded; a failure inside the library is passed on with its message.
template <typename Library, typename Result, typename Body> Result withLibrary(const Library &library, Result failed, Body body) {
    if (!library.failure.empty()) {
        lastError = library.failure;
        return failed;
    }
    const Result result = body(library);
    if (result == failed) lastError = library.lastError();
    return result;
}

}  // namespace shim

#endif
