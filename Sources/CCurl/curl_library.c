#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The functions found in the loaded library: written once under `loading`, read only
 * after swift_keyring_curl_load returned NULL, so no lock is needed around them. */
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *handle);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *queued);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int milliseconds, int *ready);
    CURLMcode (*multi_wakeup)(CURLM *multi);
} curl;

static pthread_once_t loading = PTHREAD_ONCE_INIT;
static const char *failure;
static char reason[512];

/* The soname, not "libcurl.so": that link only exists where the -dev package is installed. */
static const char library_name[] = "libcurl.so.4";

static int find(void *library, void **slot, const char *symbol) {
    *slot = dlsym(library, symbol);
    if (*slot != NULL) return 1;
    /* curl_multi_wakeup, the newest function used, came with libcurl 7.68. */
    snprintf(reason, sizeof reason, "%s has no %s: the etcd store and CurlTransport need libcurl 7.68 or later", library_name, symbol);
    failure = reason;
    return 0;
}

static void load(void) {
    void *library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(reason, sizeof reason, "libcurl could not be loaded (%s): the etcd store and CurlTransport need libcurl 7.68 or later",
                 why != NULL ? why : library_name);
        failure = reason;
        return;
    }
    /* POSIX's way to store the void * that dlsym returns into a function pointer. */
#define FIND(field, symbol) find(library, (void **)&curl.field, symbol)
    if (!(FIND(global_init, "curl_global_init") && FIND(easy_init, "curl_easy_init")
          && FIND(easy_cleanup, "curl_easy_cleanup") && FIND(easy_reset, "curl_easy_reset")
          && FIND(easy_strerror, "curl_easy_strerror") && FIND(easy_setopt, "curl_easy_setopt")
          && FIND(easy_getinfo, "curl_easy_getinfo") && FIND(slist_append, "curl_slist_append")
          && FIND(slist_free_all, "curl_slist_free_all") && FIND(multi_init, "curl_multi_init")
          && FIND(multi_cleanup, "curl_multi_cleanup") && FIND(multi_add_handle, "curl_multi_add_handle")
          && FIND(multi_remove_handle, "curl_multi_remove_handle") && FIND(multi_perform, "curl_multi_perform")
          && FIND(multi_info_read, "curl_multi_info_read") && FIND(multi_poll, "curl_multi_poll")
          && FIND(multi_wakeup, "curl_multi_wakeup"))) {
        dlclose(library);
        return;
    }
#undef FIND
    /* Once, before any handle is made, and never again: curl_global_init is not safe to
     * run beside other libcurl calls. */
    CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(reason, sizeof reason, "libcurl's global set-up failed (%s)", curl.easy_strerror(code));
        failure = reason;
    }
}

const char *swift_keyring_curl_load(void) {
    pthread_once(&loading, load);
    return failure;
}

CURL *swift_keyring_curl_easy_init(void) { return curl.easy_init(); }
void swift_keyring_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
void swift_keyring_curl_easy_reset(CURL *handle) { curl.easy_reset(handle); }
const char *swift_keyring_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }

CURLcode swift_keyring_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode swift_keyring_curl_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode swift_keyring_curl_setopt_write_function(CURL *handle, swift_keyring_curl_write_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

CURLcode swift_keyring_curl_setopt_header_function(CURL *handle, swift_keyring_curl_write_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}

CURLcode swift_keyring_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.easy_setopt(handle, option, value);
}

CURLcode swift_keyring_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}

struct curl_slist *swift_keyring_curl_slist_append(struct curl_slist *list, const char *text) {
    return curl.slist_append(list, text);
}

void swift_keyring_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }

CURLM *swift_keyring_curl_multi_init(void) { return curl.multi_init(); }
CURLMcode swift_keyring_curl_multi_cleanup(CURLM *multi) { return curl.multi_cleanup(multi); }
CURLMcode swift_keyring_curl_multi_add_handle(CURLM *multi, CURL *handle) { return curl.multi_add_handle(multi, handle); }

CURLMcode swift_keyring_curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return curl.multi_remove_handle(multi, handle);
}

CURLMcode swift_keyring_curl_multi_perform(CURLM *multi, int *running) { return curl.multi_perform(multi, running); }
CURLMsg *swift_keyring_curl_multi_info_read(CURLM *multi, int *queued) { return curl.multi_info_read(multi, queued); }

CURLMcode swift_keyring_curl_multi_poll(CURLM *multi, struct curl_waitfd *extra, unsigned int count, int milliseconds,
                                        int *ready) {
    return curl.multi_poll(multi, extra, count, milliseconds, ready);
}

CURLMcode swift_keyring_curl_multi_wakeup(CURLM *multi) { return curl.multi_wakeup(multi); }
