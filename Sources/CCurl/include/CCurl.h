#ifndef SWIFT_KEYRING_CCURL_H
#define SWIFT_KEYRING_CCURL_H

/* libcurl, loaded when the first etcd store opens or CurlTransport sends, rather than when the program starts:
 * linked, it brings some thirty libraries (TLS, Kerberos, LDAP, HTTP/2...) and their
 * relocations and constructors into every start of a program that never talks to etcd.
 * curl.h gives the types and constants; every call goes through the functions below,
 * which call the loaded library. Every symbol has the swift_keyring_curl_ prefix.
 * Call swift_keyring_curl_load first, and nothing else unless it returned NULL. */

#include <curl/curl.h>

/* Loads libcurl.so.4, finds the functions the etcd client uses and runs curl_global_init,
 * once a process (later calls return the first answer). Returns NULL when libcurl is
 * ready, or a sentence saying why it is not (static storage, names no secret). */
const char *swift_keyring_curl_load(void);

CURL *swift_keyring_curl_easy_init(void);
void swift_keyring_curl_easy_cleanup(CURL *handle);
void swift_keyring_curl_easy_reset(CURL *handle);
const char *swift_keyring_curl_easy_strerror(CURLcode code);

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call:
 * one non-variadic function per argument type the etcd client passes. */
CURLcode swift_keyring_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode swift_keyring_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value);
typedef size_t (*swift_keyring_curl_write_callback)(char *data, size_t size, size_t count, void *context);
CURLcode swift_keyring_curl_setopt_write_function(CURL *handle, swift_keyring_curl_write_callback callback);
/* The answer's header lines, one a call, for KeyringAuthentication's transport. */
CURLcode swift_keyring_curl_setopt_header_function(CURL *handle, swift_keyring_curl_write_callback callback);
CURLcode swift_keyring_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode swift_keyring_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);

struct curl_slist *swift_keyring_curl_slist_append(struct curl_slist *list, const char *text);
void swift_keyring_curl_slist_free_all(struct curl_slist *list);

CURLM *swift_keyring_curl_multi_init(void);
CURLMcode swift_keyring_curl_multi_cleanup(CURLM *multi);
CURLMcode swift_keyring_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode swift_keyring_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode swift_keyring_curl_multi_perform(CURLM *multi, int *running);
CURLMsg *swift_keyring_curl_multi_info_read(CURLM *multi, int *queued);
CURLMcode swift_keyring_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int milliseconds, int *ready);
CURLMcode swift_keyring_curl_multi_wakeup(CURLM *multi);

#endif
