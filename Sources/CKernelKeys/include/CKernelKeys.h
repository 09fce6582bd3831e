#ifndef C_KERNEL_KEYS_H
#define C_KERNEL_KEYS_H

/* The kernel's key retention service (keyrings(7)) through its two system calls.
 * glibc has no wrappers for add_key and keyctl and Swift cannot call the variadic
 * syscall(2), so these two functions are the whole of it: no libkeyutils to load or
 * link, no -dev package to build. Each returns the call's result, or -errno. */

#include <stddef.h>
#include <stdint.h>

/* The special keyring ids and keyctl operations used, as <linux/keyctl.h> numbers them. */
enum {
    SWIFT_KEYRING_KEY_SPEC_PROCESS = -2,
    SWIFT_KEYRING_KEY_SPEC_SESSION = -3,
    SWIFT_KEYRING_KEYCTL_GET_KEYRING_ID = 0,
    SWIFT_KEYRING_KEYCTL_JOIN_SESSION_KEYRING = 1,
    SWIFT_KEYRING_KEYCTL_UNLINK = 9,
    SWIFT_KEYRING_KEYCTL_SEARCH = 10,
    SWIFT_KEYRING_KEYCTL_READ = 11,
    SWIFT_KEYRING_KEYCTL_SETPERM = 5,
    SWIFT_KEYRING_KEYCTL_SET_TIMEOUT = 15,
    SWIFT_KEYRING_KEYCTL_INVALIDATE = 21,
    SWIFT_KEYRING_KEYCTL_DESCRIBE = 6,
    SWIFT_KEYRING_KEYCTL_GET_PERSISTENT = 22,
    SWIFT_KEYRING_KEYCTL_MOVE = 30,
    SWIFT_KEYRING_KEYCTL_MOVE_EXCL = 1,
};

/* add_key(2): adds (or updates) a key of `type` named `description` in `keyring`. */
long swift_keyring_add_key(const char *type, const char *description, const void *payload, size_t length,
                           int32_t keyring);

/* keyctl(2) with up to four arguments. */
long swift_keyring_keyctl(int operation, unsigned long first, unsigned long second, unsigned long third,
                          unsigned long fourth);

#endif
