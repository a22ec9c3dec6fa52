// The sv_ functions that run OpenCV's core and imgproc, forwarded to libSwiftVisionImaging.so
// (Sources/CVisionImaging). Debian's libopencv_core pulls in BLAS, LAPACK, gfortran, TBB and X11's
// client libraries, about 4 MiB of resident memory at start: the library is loaded with dlopen on the
// first call, so a process that only reads image headers (`swiftvision info`) or prints its help never
// maps them. Where it is looked for: $SWIFTVISION_IMAGING_LIBRARY, then as LibraryLoading.hpp says.
//
// The thread count asked for before the library is loaded is kept here and applied when it loads.
#include "../CVisionImaging/include/CVisionImaging.h"
#include "LibraryLoading.hpp"

#include <cstdint>
#include <mutex>
#include <string>

using namespace shim;

namespace {

constexpr const char *libraryName = "libSwiftVisionImaging.so";

/// The functions of CVisionImaging.h, resolved in the loaded library.
struct ImagingLibrary {
    /// Why the library could not be used; empty once it is loaded.
    std::string failure;
    const char *(*lastError)(void) = nullptr;
    int32_t (*setThreadCount)(int32_t) = nullptr;
#define SV_IMAGING_MEMBER(name, parameters, arguments) int(*name) parameters = nullptr;
    SV_IMAGING_FUNCTIONS(SV_IMAGING_MEMBER)
#undef SV_IMAGING_MEMBER
};

/// Guards the thread count and whether the library is loaded, so that a count set while it loads is not lost.
std::mutex settingsLock;
/// The thread count of the last sv_set_thread_count, or INT32_MIN when none was asked for.
int32_t requestedThreads = INT32_MIN;
/// The library once loaded, for sv_set_thread_count.
const ImagingLibrary *loadedLibrary = nullptr;

ImagingLibrary load() {
    ImagingLibrary library;
    void *handle = openLibrary(libraryName, "SWIFTVISION_IMAGING_LIBRARY", "SwiftVisionImaging",
                               "OpenCV", library.failure);
    if (handle == nullptr) return library;
    std::string missing;
    resolve(handle, "svi_last_error", library.lastError, missing);
    resolve(handle, "svi_set_thread_count", library.setThreadCount, missing);
#define SV_IMAGING_RESOLVE(name, parameters, arguments) resolve(handle, "svi_" #name, library.name, missing);
    SV_IMAGING_FUNCTIONS(SV_IMAGING_RESOLVE)
#undef SV_IMAGING_RESOLVE
    checkLibrary(handle, libraryName, "svi_interface", SV_IMAGING_FUNCTIONS(SV_INTERFACE_ENTRY), missing,
                 library.failure);
    return library;
}

const ImagingLibrary &shared() {
    static const ImagingLibrary library = load();
    [[maybe_unused]] static const bool settingsApplied = [] {
        if (!library.failure.empty()) return false;
        const std::lock_guard<std::mutex> hold(settingsLock);
        if (requestedThreads != INT32_MIN) library.setThreadCount(requestedThreads);
        loadedLibrary = &library;
        return true;
    }();
    return library;
}

}  // namespace

extern "C" {

int32_t sv_set_thread_count(int32_t count) {
    const std::lock_guard<std::mutex> hold(settingsLock);
    requestedThreads = count;
    return loadedLibrary != nullptr ? loadedLibrary->setThreadCount(count) : count;
}

#define SV_IMAGING_FORWARD(name, parameters, arguments)                                                               \
    int sv_##name parameters {                                                                                        \
        return withLibrary(shared(), -1, [&](const ImagingLibrary &library) { return library.name arguments; });      \
    }
SV_IMAGING_FUNCTIONS(SV_IMAGING_FORWARD)
#undef SV_IMAGING_FORWARD

}  // extern "C"
