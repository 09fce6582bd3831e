#include "CGcrypt.h"

/* The header stops other systems with one #error; nothing below is then compiled. */
#if defined(__linux__)

#include <errno.h>
#include <sys/prctl.h>
#include <sys/resource.h>

void swift_keyring_wipe(void *bytes, size_t count) {
    volatile unsigned char *cursor = (volatile unsigned char *)bytes;
    while (count--) {
        *cursor++ = 0;
    }
}

int swift_keyring_process_forbid_dumps(void) {
    struct rlimit none = { 0, 0 };
    if (setrlimit(RLIMIT_CORE, &none) != 0) {
        return errno;
    }
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
        return errno;
    }
    return 0;
}

#endif
