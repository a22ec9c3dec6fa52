// Our own minimal declarations of the parts of libcurl's easy API (curl/curl.h, libcurl.so.4) that model
// downloads use, written from curl's documentation; option and info numbers are curl's stable ABI.
// SwiftVision loads the library with dlopen on the first download and binds these function types with
// dlsym, so that the binary does not need libcurl and the libraries it links to start.
#ifndef SWIFTVISION_CCURL_H
#define SWIFTVISION_CCURL_H

#include <stddef.h>

typedef struct CURL CURL;
typedef int CURLcode;  // 0 is CURLE_OK.
/// The CURLcode of a transfer stopped by CURLOPT_CONNECTTIMEOUT or CURLOPT_LOW_SPEED_LIMIT/_TIME.
enum { CURLE_OPERATION_TIMEDOUT = 28 };

/// A list of strings (request headers): curl_slist_append makes and extends it, curl_slist_free_all frees it.
struct curl_slist {
    char *data;
    struct curl_slist *next;
};

typedef enum {
    CURLOPT_LOW_SPEED_LIMIT = 19,
    CURLOPT_LOW_SPEED_TIME = 20,
    CURLOPT_NOPROGRESS = 43,
    CURLOPT_FOLLOWLOCATION = 52,
    CURLOPT_CONNECTTIMEOUT = 78,
    CURLOPT_NOSIGNAL = 99,
    CURLOPT_SUPPRESS_CONNECT_HEADERS = 265,
    CURLOPT_WRITEDATA = 10001,
    CURLOPT_URL = 10002,
    CURLOPT_ERRORBUFFER = 10010,
    CURLOPT_USERAGENT = 10018,
    CURLOPT_HTTPHEADER = 10023,
    CURLOPT_HEADERDATA = 10029,
    CURLOPT_PROTOCOLS_STR = 10318,
    CURLOPT_REDIR_PROTOCOLS_STR = 10319,
    CURLOPT_WRITEFUNCTION = 20011,
    CURLOPT_HEADERFUNCTION = 20079,
} CURLoption;

/// curl_global_init's flags: CURL_GLOBAL_ALL.
enum { CURL_GLOBAL_ALL = 3 };
/// The size of the buffer CURLOPT_ERRORBUFFER fills.
enum { CURL_ERROR_SIZE = 256 };

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION: return size * count to go on, anything else to abort.
typedef size_t (*CurlDataCallback)(char *data, size_t size, size_t count, void *context);

typedef CURLcode (*CurlGlobalInitFunction)(long flags);
typedef CURL *(*CurlEasyInitFunction)(void);
typedef void (*CurlEasyCleanupFunction)(CURL *handle);
typedef CURLcode (*CurlEasySetoptFunction)(CURL *handle, CURLoption option, ...);
typedef CURLcode (*CurlEasyPerformFunction)(CURL *handle);
typedef const char *(*CurlEasyStrerrorFunction)(CURLcode code);
typedef struct curl_slist *(*CurlSlistAppendFunction)(struct curl_slist *list, const char *string);
typedef void (*CurlSlistFreeAllFunction)(struct curl_slist *list);

// curl_easy_setopt is variadic, which Swift cannot call: these call it with one argument of each kind.

/// curl_easy_setopt with a `long` (CURLOPTTYPE_LONG options).
CURLcode swiftvision_curl_setopt_long(CurlEasySetoptFunction setopt, CURL *handle, CURLoption option, long value);
/// curl_easy_setopt with a pointer (strings, lists, buffers and callback data).
CURLcode swiftvision_curl_setopt_pointer(CurlEasySetoptFunction setopt, CURL *handle, CURLoption option,
                                         const void *value);
/// curl_easy_setopt with a data callback (CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION).
CURLcode swiftvision_curl_setopt_callback(CurlEasySetoptFunction setopt, CURL *handle, CURLoption option,
                                          CurlDataCallback value);

#endif
