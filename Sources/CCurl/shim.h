#ifndef SWIFT_KEYRING_CCURL_SHIM_H
#define SWIFT_KEYRING_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call:
// one non-variadic wrapper per argument type the etcd client passes.

static inline CURLcode swift_keyring_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode swift_keyring_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*swift_keyring_curl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode swift_keyring_curl_setopt_write_function(CURL *handle, swift_keyring_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode swift_keyring_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
