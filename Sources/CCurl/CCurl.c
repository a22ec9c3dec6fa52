#include "CCurl.h"

CURLcode swiftvision_curl_setopt_long(CurlEasySetoptFunction setopt, CURL *handle, CURLoption option, long value) {
    return setopt(handle, option, value);
}

CURLcode swiftvision_curl_setopt_pointer(CurlEasySetoptFunction setopt, CURL *handle, CURLoption option,
                                         const void *value) {
    return setopt(handle, option, value);
}

CURLcode swiftvision_curl_setopt_callback(CurlEasySetoptFunction setopt, CURL *handle, CURLoption option,
                                          CurlDataCallback value) {
    return setopt(handle, option, value);
}
