#include "CLibSecret.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The sonames, never the -dev packages' unversioned links. libsecret-1.so.0 comes first:
 * loading it loads the other three, so their dlopen calls only hand back handles. */
enum { LIBSECRET, GIO, GOBJECT, GLIB, LIBRARY_COUNT };
static const char *const library_names[LIBRARY_COUNT] = {
    "libsecret-1.so.0", "libgio-2.0.so.0", "libgobject-2.0.so.0", "libglib-2.0.so.0",
};

/* The real functions: written once under `loading`, read only after it succeeded, so no
 * lock is needed around them. */
static struct {
#define SWIFT_KEYRING_FUNCTION(library, result, name, parameters, arguments) result(*name) parameters;
#define SWIFT_KEYRING_PROCEDURE(library, name, parameters, arguments) void(*name) parameters;
#include "CLibSecretFunctions.h"
#undef SWIFT_KEYRING_FUNCTION
#undef SWIFT_KEYRING_PROCEDURE
} real;

static pthread_once_t loading = PTHREAD_ONCE_INIT;
static const char *failure;
static char reason[512];

/* Finds `symbol` in the library's own handle, never RTLD_DEFAULT: that could answer with
 * the stub of the same name below, which would then call itself. */
static int find(void *library, const char *library_name, void **slot, const char *symbol) {
    *slot = dlsym(library, symbol);
    if (*slot != NULL) return 1;
    /* None is callable after a failed load, not even those found: the stubs stop the program. */
    memset(&real, 0, sizeof real);
    snprintf(reason, sizeof reason, "%s has no %s: the Secret Service store needs libsecret 0.20 and GLib 2.64 or later",
             library_name, symbol);
    failure = reason;
    return 0;
}

static void load(void) {
    void *libraries[LIBRARY_COUNT];
    for (int index = 0; index < LIBRARY_COUNT; index++) {
        libraries[index] = dlopen(library_names[index], RTLD_NOW | RTLD_LOCAL);
        if (libraries[index] == NULL) {
            const char *why = dlerror();
            snprintf(reason, sizeof reason, "%s could not be loaded (%s)", library_names[index],
                     why != NULL ? why : "no reason given");
            failure = reason;
            return;
        }
    }
    /* POSIX's way to store the void * that dlsym returns into a function pointer. Every
     * handle stays open for the life of the process: GLib cannot be unloaded. */
#define SWIFT_KEYRING_FUNCTION(library, result, name, parameters, arguments)                                     \
    if (!find(libraries[library], library_names[library], (void **)&real.name, #name)) return;
#define SWIFT_KEYRING_PROCEDURE(library, name, parameters, arguments)                                            \
    if (!find(libraries[library], library_names[library], (void **)&real.name, #name)) return;
#include "CLibSecretFunctions.h"
#undef SWIFT_KEYRING_FUNCTION
#undef SWIFT_KEYRING_PROCEDURE
}

const char *swift_keyring_libsecret_load(void) {
    pthread_once(&loading, load);
    return failure;
}

/* A stub called before a successful load is a bug of ours (an entry point that did not
 * call swift_keyring_libsecret_load): stop at once, naming the function, rather than
 * jump through a null pointer. */
__attribute__((noreturn, cold)) static void not_loaded(const char *name) {
    fprintf(stderr, "swift-keyring: %s was called before libsecret was loaded\n", name);
    abort();
}

#define SWIFT_KEYRING_FUNCTION(library, result, name, parameters, arguments)                                     \
    result name parameters {                                                                                      \
        if (__builtin_expect(real.name == NULL, 0)) not_loaded(#name);                                            \
        return real.name arguments;                                                                               \
    }
#define SWIFT_KEYRING_PROCEDURE(library, name, parameters, arguments)                                            \
    void name parameters {                                                                                        \
        if (__builtin_expect(real.name == NULL, 0)) not_loaded(#name);                                            \
        real.name arguments;                                                                                      \
    }
#include "CLibSecretFunctions.h"
#undef SWIFT_KEYRING_FUNCTION
#undef SWIFT_KEYRING_PROCEDURE
