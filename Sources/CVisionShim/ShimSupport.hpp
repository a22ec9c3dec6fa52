// Helpers shared by the shim's translation units and the libraries it loads: exception guarding, the last error.
#ifndef SWIFTVISION_SHIMSUPPORT_HPP
#define SWIFTVISION_SHIMSUPPORT_HPP

#include "include/CVisionShim.h"

#include <exception>
#include <string>

namespace shim {

/// The text sv_last_error returns, per thread.
inline thread_local std::string lastError;

/// Runs `body`, turning exceptions (OpenCV's cv::Exception among them) into -1 and a message for sv_last_error.
template <typename Body> int guarded(Body body) {
    try {
        return body();
    } catch (const std::exception &error) {
        lastError = error.what();
    } catch (...) {
        lastError = "unknown C++ exception";
    }
    return -1;
}

/// Checks a decoded size against `destination`: 0 when it fits, 1 (with the size written) when the caller
/// must allocate another, -1 when it is beyond the decoders' ceiling (codecs.cpp).
int fitDecoded(uint64_t width, uint64_t height, const SVImageView &destination, int32_t *outWidth, int32_t *outHeight);

}  // namespace shim

/// One function of an X-macro list (name, parameters, arguments) as the text "name(parameters);". Expanded over a
/// whole list it gives one string literal, the list's interface: a loader and the library it loads, each compiled
/// from its own copy of the header, agree on the functions' signatures exactly when their strings are equal. A
/// library from another build whose functions take other parameters would otherwise be called with the wrong
/// arguments and corrupt memory.
#define SV_INTERFACE_ENTRY(name, parameters, arguments) #name #parameters ";"

#endif
