#include "LibraryLoading.hpp"

#include <cstdlib>
#include <cstring>

namespace {

/// The folder of the file the shim's code was loaded from, with a trailing slash, or "".
std::string shimFolder() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&sv_last_error), &info) == 0 || info.dli_fname == nullptr) return "";
    const std::string path = info.dli_fname;
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

}  // namespace

void *shim::openLibrary(const char *fileName, const char *variable, const char *product, const char *purpose,
                        std::string &failure) {
    std::string attempts;
    std::string candidates[3];
    if (const char *chosen = std::getenv(variable); chosen != nullptr && *chosen != 0) {
        candidates[0] = chosen;
    } else {
        const std::string folder = shimFolder();
        if (!folder.empty()) candidates[1] = folder + fileName;
        candidates[2] = fileName;
    }
    for (const std::string &candidate : candidates) {
        if (candidate.empty()) continue;
        if (void *handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
        const char *reason = dlerror();
        attempts += "\n  " + (reason != nullptr ? std::string(reason) : candidate);
    }
    failure = std::string(purpose) + " (" + fileName + ", the package's " + product +
              " product) could not be loaded; build it next to the executable or set " + variable + " to its path:" +
              attempts;
    return nullptr;
}

void *shim::openSystemLibrary(const char *soname, const std::string &purpose, std::string &failure) {
    if (void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL)) return handle;
    const char *reason = dlerror();
    failure = purpose + ": " + (reason != nullptr ? std::string(reason) : std::string(soname) + " could not be loaded");
    return nullptr;
}

bool shim::checkLibrary(void *handle, const char *fileName, const char *interfaceSymbol, const char *expected,
                        std::string &missing, std::string &failure) {
    const char *(*interface)(void) = nullptr;
    resolve(handle, interfaceSymbol, interface, missing);
    if (!missing.empty()) {
        failure = std::string(fileName) + " lacks " + missing + ": it is from another version of SwiftVision";
    } else if (std::strcmp(interface(), expected) != 0) {
        failure = std::string(fileName) +
                  " was built from other sources than this executable (its functions take other arguments); build "
                  "both again from the same sources, for example with `swift build`, which builds every product";
    } else {
        return true;
    }
    dlclose(handle);
    return false;
}
