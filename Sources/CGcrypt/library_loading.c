#include "CGcrypt.h"

/* The header stops other systems with one #error; nothing below is then compiled. */
#if defined(__linux__)
#include "gcrypt_control.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The soname, not "libgcrypt.so": that link only exists where the -dev package is installed. */
static const char library_name[] = "libgcrypt.so.20";

/* The real functions: written once under `loading`, read only after it succeeded. */
static struct {
#define SWIFT_KEYRING_GCRY_FUNCTION(result, name, parameters, arguments) result(*name) parameters;
#define SWIFT_KEYRING_GCRY_PROCEDURE(name, parameters, arguments) void(*name) parameters;
#include "CGcryptFunctions.h"
#undef SWIFT_KEYRING_GCRY_FUNCTION
#undef SWIFT_KEYRING_GCRY_PROCEDURE
} real;

swift_keyring_gcry_control_function swift_keyring_gcry_control;

static pthread_once_t loading = PTHREAD_ONCE_INIT;
static const char *failure;
static char reason[512];

/* Finds `symbol` in libgcrypt's own handle, never RTLD_DEFAULT: that could answer with the
 * stub of the same name below, which would then call itself. */
static int find(void *library, void **slot, const char *symbol) {
    *slot = dlsym(library, symbol);
    if (*slot != NULL) return 1;
    /* None is callable after a failed load, not even those found: the stubs stop the program. */
    memset(&real, 0, sizeof real);
    swift_keyring_gcry_control = NULL;
    /* gcry_kdf_open (Argon2), the newest function used, came with libgcrypt 1.10. */
    snprintf(reason, sizeof reason, "%s has no %s: swift-keyring needs libgcrypt 1.10 or later", library_name, symbol);
    failure = reason;
    return 0;
}

static void load(void) {
    void *library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        snprintf(reason, sizeof reason, "%s could not be loaded (%s)", library_name, why != NULL ? why : "no reason given");
        failure = reason;
        return;
    }
    /* POSIX's way to store the void * that dlsym returns into a function pointer. The
     * handle stays open for the life of the process: secure memory lives in the library. */
    if (!find(library, (void **)&swift_keyring_gcry_control, "gcry_control")) return;
#define SWIFT_KEYRING_GCRY_FUNCTION(result, name, parameters, arguments)                                         \
    if (!find(library, (void **)&real.name, #name)) return;
#define SWIFT_KEYRING_GCRY_PROCEDURE(name, parameters, arguments)                                                \
    if (!find(library, (void **)&real.name, #name)) return;
#include "CGcryptFunctions.h"
#undef SWIFT_KEYRING_GCRY_FUNCTION
#undef SWIFT_KEYRING_GCRY_PROCEDURE
}

const char *swift_keyring_gcry_load(void) {
    pthread_once(&loading, load);
    return failure;
}

/* A stub called before a successful load is a bug of ours (a crypto entry point that did
 * not call Gcrypt.ensureReady): stop at once, naming the function. */
__attribute__((noreturn, cold)) static void not_loaded(const char *name) {
    fprintf(stderr, "swift-keyring: %s was called before libgcrypt was loaded\n", name);
    abort();
}

/* Hidden: the stubs never leave the program or library they are linked into, so libsecret,
 * which links libgcrypt, never finds ours in place of the real functions. */
#define SWIFT_KEYRING_GCRY_FUNCTION(result, name, parameters, arguments)                                         \
    __attribute__((visibility("hidden"))) result name parameters {                                                \
        if (__builtin_expect(real.name == NULL, 0)) not_loaded(#name);                                            \
        return real.name arguments;                                                                               \
    }
#define SWIFT_KEYRING_GCRY_PROCEDURE(name, parameters, arguments)                                                \
    __attribute__((visibility("hidden"))) void name parameters {                                                  \
        if (__builtin_expect(real.name == NULL, 0)) not_loaded(#name);                                            \
        real.name arguments;                                                                                      \
    }
#include "CGcryptFunctions.h"
#undef SWIFT_KEYRING_GCRY_FUNCTION
#undef SWIFT_KEYRING_GCRY_PROCEDURE

#endif
