#include "CKernelKeys.h"

#if defined(__linux__)

#include <errno.h>
#include <linux/keyctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The header's numbers are the kernel's: a mismatch stops the build, not a call. */
_Static_assert(SWIFT_KEYRING_KEY_SPEC_PROCESS == KEY_SPEC_PROCESS_KEYRING, "process keyring id");
_Static_assert(SWIFT_KEYRING_KEY_SPEC_SESSION == KEY_SPEC_SESSION_KEYRING, "session keyring id");
_Static_assert(SWIFT_KEYRING_KEYCTL_GET_KEYRING_ID == KEYCTL_GET_KEYRING_ID, "keyctl get id");
_Static_assert(SWIFT_KEYRING_KEYCTL_JOIN_SESSION_KEYRING == KEYCTL_JOIN_SESSION_KEYRING, "keyctl join");
_Static_assert(SWIFT_KEYRING_KEYCTL_UNLINK == KEYCTL_UNLINK, "keyctl unlink");
_Static_assert(SWIFT_KEYRING_KEYCTL_SEARCH == KEYCTL_SEARCH, "keyctl search");
_Static_assert(SWIFT_KEYRING_KEYCTL_READ == KEYCTL_READ, "keyctl read");
_Static_assert(SWIFT_KEYRING_KEYCTL_SETPERM == KEYCTL_SETPERM, "keyctl setperm");
_Static_assert(SWIFT_KEYRING_KEYCTL_SET_TIMEOUT == KEYCTL_SET_TIMEOUT, "keyctl set timeout");
_Static_assert(SWIFT_KEYRING_KEYCTL_INVALIDATE == KEYCTL_INVALIDATE, "keyctl invalidate");
_Static_assert(SWIFT_KEYRING_KEYCTL_DESCRIBE == KEYCTL_DESCRIBE, "keyctl describe");
_Static_assert(SWIFT_KEYRING_KEYCTL_GET_PERSISTENT == KEYCTL_GET_PERSISTENT, "keyctl get persistent");
_Static_assert(SWIFT_KEYRING_KEYCTL_MOVE == KEYCTL_MOVE, "keyctl move");
_Static_assert(SWIFT_KEYRING_KEYCTL_MOVE_EXCL == KEYCTL_MOVE_EXCL, "keyctl move exclusive");

long swift_keyring_add_key(const char *type, const char *description, const void *payload, size_t length,
                           int32_t keyring) {
    long result = syscall(SYS_add_key, type, description, payload, length, keyring);
    return result < 0 ? -errno : result;
}

long swift_keyring_keyctl(int operation, unsigned long first, unsigned long second, unsigned long third,
                          unsigned long fourth) {
    long result = syscall(SYS_keyctl, operation, first, second, third, fourth);
    return result < 0 ? -errno : result;
}

#endif
